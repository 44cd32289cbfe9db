import type * as FastCheck from 'fast-check';
import type { BudgetOptions } from '../config/budget.js';
import type { JsonValue } from '../core/messages.js';
import type { TokenUsage } from '../core/usage.js';
import { loadOptional } from '../stores/load-optional.js';
import {
  type AnswerTurn,
  type FailingTurn,
  formatScript,
  type Script,
  type ScriptCall,
  type ScriptTurn,
  type ToolsTurn,
} from './script.js';

/**
 * fast-check, an optional peer: loaded with this module, so that the rest of the testing kit
 * works without it. When it is missing, the first arbitrary asked for throws HarnessError
 * `missing_dependency`, one line that names the package to install.
 */
const loaded: typeof FastCheck | { readonly missing: unknown } = await loadOptional(
  'fast-check',
  "agent-harness/testing's script arbitraries",
  () => import('fast-check'),
).catch((error: unknown) => ({ missing: error }));

function fastCheck(): typeof FastCheck {
  if ('missing' in loaded) throw loaded.missing;
  return loaded;
}

/** A tool the generated model may call, and how to generate arguments it accepts. */
export interface ToolArbitrary {
  readonly name: string;
  /** Valid arguments for the tool (invalid ones are generated for you when `invalidCalls` is on). */
  readonly arguments: FastCheck.Arbitrary<JsonValue>;
}

/** Options of {@link scriptArbitrary} and {@link turnArbitrary}. */
export interface ScriptArbitraryOptions {
  /** The tools the model knows about. */
  readonly tools: readonly ToolArbitrary[];
  /** Most turns in a script. Default 5. */
  readonly maxTurns?: number;
  /** Most tool calls in one turn. Default 3. */
  readonly maxCallsPerTurn?: number;
  /** Also call unknown tools, with non-JSON text, or with arguments of the wrong shape. Default true. */
  readonly invalidCalls?: boolean;
  /** Also generate turns whose stream reports an error or throws. Default true. */
  readonly failingTurns?: boolean;
  /**
   * Also generate turns that never finish (`stall`). Off by default: turn it on only when every
   * run has a wall-clock budget or an abort, or a run waits forever.
   */
  readonly stallingTurns?: boolean;
}

/** Short text pieces, including non-ASCII and empty ones. */
export function textArbitrary(): FastCheck.Arbitrary<string[]> {
  const fc = fastCheck();
  return fc.array(fc.string({ unit: 'grapheme', maxLength: 6 }), { maxLength: 3 });
}

/** A usage report whose total is the sum of its parts. */
export function usageArbitrary(): FastCheck.Arbitrary<TokenUsage> {
  const fc = fastCheck();
  return fc.tuple(fc.nat(1500), fc.nat(800)).map(([promptTokens, completionTokens]) => ({
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
  }));
}

function invalidCallArbitrary(names: readonly string[]): FastCheck.Arbitrary<ScriptCall> {
  const fc = fastCheck();
  const known = names.length > 0 ? fc.constantFrom(...names) : fc.constant('no_such_tool');
  return fc.oneof(
    fc.record({ name: fc.constantFrom('no_such_tool', 'rm_rf'), arguments: fc.constant<JsonValue>({}) }),
    fc.record({ name: known, arguments: fc.constantFrom<JsonValue>('{"path": ', 'not json', '[1,') }),
    fc.record({ name: known, arguments: fc.jsonValue({ maxDepth: 2 }) as FastCheck.Arbitrary<JsonValue> }),
  );
}

/** One tool call: mostly valid calls of the given tools, sometimes invalid ones. */
export function callArbitrary(options: ScriptArbitraryOptions): FastCheck.Arbitrary<ScriptCall> {
  const fc = fastCheck();
  const valid: FastCheck.Arbitrary<ScriptCall>[] = options.tools.map((tool) =>
    fc.record({ name: fc.constant(tool.name), arguments: tool.arguments }),
  );
  const invalid = invalidCallArbitrary(options.tools.map((tool) => tool.name));
  if (valid.length === 0) return invalid;
  if (options.invalidCalls === false) return fc.oneof(...valid);
  return fc.oneof({ arbitrary: fc.oneof(...valid), weight: 4 }, { arbitrary: invalid, weight: 1 });
}

/** A turn that answers. */
export function answerArbitrary(): FastCheck.Arbitrary<AnswerTurn> {
  const fc = fastCheck();
  return fc.record({ kind: fc.constant('answer' as const), text: textArbitrary(), usage: usageArbitrary() });
}

function toolsArbitrary(options: ScriptArbitraryOptions): FastCheck.Arbitrary<ToolsTurn> {
  const fc = fastCheck();
  const calls = fc.array(callArbitrary(options), { minLength: 1, maxLength: options.maxCallsPerTurn ?? 3 });
  return fc.record({ kind: fc.constant('tools' as const), text: textArbitrary(), calls, usage: usageArbitrary() });
}

function failingArbitrary(): FastCheck.Arbitrary<FailingTurn> {
  const fc = fastCheck();
  return fc.record({
    kind: fc.constantFrom('error' as const, 'throw' as const),
    text: textArbitrary(),
    message: fc.constantFrom('rate limited', 'connection reset', 'overloaded'),
  });
}

/** One model turn: an answer, a tool turn, or (unless `failingTurns` is off) a failing stream. */
export function turnArbitrary(options: ScriptArbitraryOptions): FastCheck.Arbitrary<ScriptTurn> {
  const fc = fastCheck();
  const turns: FastCheck.WeightedArbitrary<ScriptTurn>[] = [
    { arbitrary: answerArbitrary(), weight: 2 },
    { arbitrary: toolsArbitrary(options), weight: 6 },
  ];
  if (options.failingTurns !== false) turns.push({ arbitrary: failingArbitrary(), weight: 1 });
  if (options.stallingTurns === true) {
    turns.push({ arbitrary: fc.record({ kind: fc.constant('stall' as const), text: textArbitrary() }), weight: 1 });
  }
  return fc.oneof(...turns);
}

/** Gives a script a readable form in fast-check's counterexample report. */
function printable(script: ScriptTurn[]): Script {
  const fc = fastCheck();
  Object.defineProperty(script, fc.toStringMethod, { value: () => formatScript(script), enumerable: false });
  return script;
}

/**
 * Scripts of random model behaviour: 0..maxTurns turns, often ending in an answer. Shrinks
 * towards fewer turns, fewer calls and shorter text; counterexamples print as {@link formatScript}.
 */
export function scriptArbitrary(options: ScriptArbitraryOptions): FastCheck.Arbitrary<Script> {
  const fc = fastCheck();
  const turns = fc.array(turnArbitrary(options), { maxLength: options.maxTurns ?? 5 });
  return fc
    .tuple(turns, fc.option(answerArbitrary(), { nil: undefined }))
    .map(([body, last]) => printable(last === undefined ? body : [...body, last]));
}

/** Random budgets: a turn limit, and sometimes cost, token and wall-clock limits and a soft limit. */
export function budgetArbitrary(
  options: { readonly maxWallClockMs?: boolean } = {},
): FastCheck.Arbitrary<BudgetOptions> {
  const fc = fastCheck();
  const keys = {
    maxTurns: fc.integer({ min: 1, max: 6 }),
    maxCost: fc.integer({ min: 1, max: 60 }).map((n) => n / 10_000),
    maxTotalTokens: fc.integer({ min: 50, max: 6000 }),
    softLimitRatio: fc.integer({ min: 3, max: 10 }).map((n) => n / 10),
    ...(options.maxWallClockMs ? { maxWallClockMs: fc.integer({ min: 5, max: 80 }) } : {}),
  };
  return fc.record(keys, { requiredKeys: ['maxTurns'] });
}
