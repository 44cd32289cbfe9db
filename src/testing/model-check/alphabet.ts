import { verdictOf } from '../../agent/index.js';
import type { Permission, PolicyContext, PolicyFunction, PolicyVerdict } from '../../core/approval-types.js';
import type { Compaction } from '../../core/compaction.js';
import type { GuardrailOutcome, GuardrailStage, GuardrailVerdict } from '../../core/guardrail.js';
import type { ReasoningContent, ToolCall } from '../../core/messages.js';
import { isPromiseLike } from '../../core/promise-like.js';
import type { ToolResult } from '../../core/tool-result.js';
import type { TokenUsage } from '../../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  GuardrailCheckedEvent,
  ModelErrorEvent,
  ModelTurn,
  ModelTurnEvent,
  ToolSettledEvent,
  ToolSourceErrorEvent,
} from '../../machines/agent-machine-types.js';
import { waitingCalls } from '../../machines/approval-gate.js';
import type { OutputCheck } from '../../machines/model-turn.js';

/** Any event the explorer sends: the machine's own (the model's answers, tool results, aborts). */
export type ExploredEvent = AgentMachineEvent;

/** An event of the alphabet with a short printable label and whether it must have an effect. */
export interface LabelledEvent {
  /** Short name used in violation paths, e.g. `model(SU u10+5 t0)` (prompt+completion tokens, elapsed ms) or `settle#1(error t0)`. */
  readonly label: string;
  /** The event itself. */
  readonly event: ExploredEvent;
  /**
   * `matters`: the state must change (dropping it would lose a model turn, a tool result or an
   * abort). `noise`: a stale or duplicate event that must change nothing.
   */
  readonly role: 'matters' | 'noise';
}

/** The finite alphabet the explorer draws events from. */
export interface AlphabetOptions {
  /** Most tool calls in one model turn (k); every safe/unsafe pattern of 1..k calls is tried. */
  readonly maxToolCalls: number;
  /** Usages a model turn may report. */
  readonly usages: readonly TokenUsage[];
  /** Elapsed times (ms since the start) events may report; only values ≥ the current one are sent. */
  readonly elapsedSteps: readonly number[];
  /**
   * Permissions a call may have (each pattern of calls is tried with each): `['allow']` by
   * default; add `ask` to explore `awaitingApproval` with its `APPROVE`, `DENY` and `SUSPEND`.
   */
  readonly permissions?: readonly Permission[];
  /**
   * Also settle calls as invalid (`Invalid parameters: …`), exploring the `maxInvalidToolCalls`
   * bound. Off by default: the per-tool counts multiply the states.
   */
  readonly invalidCalls?: boolean;
  /**
   * Explore a run that asked for structured output: a final answer is checked (`model(answer
   * ok)` or `model(answer invalid)`), and failing ones are sent back at most `outputRetries`
   * times. Off by default.
   */
  readonly structuredOutput?: boolean;
  /**
   * Explore context compaction: the machine runs with a context limit of
   * {@link EXPLORED_CONTEXT_LIMIT} tokens, model turns may leave the context over it, and in
   * `compacting` a compaction makes room, finds nothing to compact, or its summary request
   * fails. Off by default.
   */
  readonly context?: boolean;
  /**
   * Also settle calls the way a sub-agent's call (`agentTool`) does: carrying the child's usage,
   * which counts into the run's budgets, with the child's answer or its budget stop as an error
   * (`settle#0(child ok u…)`, `settle#0(child token_budget u…)`). A child's spend can then stop
   * the parent, and the budget oracle checks that it does. Off by default.
   */
  readonly childUsage?: TokenUsage;
  /**
   * Model turns carry reasoning parts made for them (a signed part and a redacted one, naming
   * the turn), so that `reasoning_integrity` checks each is journaled with its own turn and
   * calls, unchanged. Off by default.
   */
  readonly reasoning?: boolean;
  /**
   * Explore guardrails on every stage: the input's check runs beside the first request (and
   * holds its answer), each settled result is checked before it is journaled, and the final
   * answer in `guardingOutput`; each check passes, replaces or trips. Off by default.
   */
  readonly guardrails?: boolean;
  /**
   * Calls may also be judged by policy functions, their verdicts made by the agent's own code
   * (`verdictOf`): a function answers `allow` (`Sf`), `ask` (`Sf?`), `{ deny }` (`Sf!`), or
   * throws, which denies (`Sf!!`). Every turn with calls then carries `permissions` and
   * `verdicts` as the model-request effect sends them (fixed rules included, not computed).
   * Function denials name their call (`[call c0]`), so `denied_never_runs` sees a verdict
   * applied to the wrong call. Off by default.
   */
  readonly policyVerdicts?: boolean;
}

/** The context limit a model check with `context: true` explores (tokens). */
export const EXPLORED_CONTEXT_LIMIT = 100;

/** How a call's permission shows in a label: nothing for `allow`, `?` for `ask`, `!` for `deny`. */
const PERMISSION_MARK: Readonly<Record<Permission, string>> = { allow: '', ask: '?', deny: '!' };

const RESULTS: readonly (readonly [string, ToolResult])[] = [
  ['ok', { success: true, output: 'ok' }],
  ['error', { success: false, error: 'failed' }],
  ['timeout', { success: false, error: "Tool 'probe' timed out after 5 ms" }],
];

const OUTPUT_CHECKS: readonly (readonly [string, OutputCheck])[] = [
  ['ok', { ok: true, value: { answer: 42 } }],
  ['invalid', { ok: false, problem: 'Invalid output: answer: expected number, received string' }],
];

/** How a child agent's call settles: its answer, or its own budget stop as an error. */
const CHILD_RESULTS: readonly (readonly [string, ToolResult])[] = [
  ['ok', { success: true, output: 'the child answered' }],
  ['token_budget', { success: false, error: 'token_budget: token budget exceeded: 30 > 20 tokens' }],
];

const INVALID: readonly [string, ToolResult] = [
  'invalid',
  { success: false, error: 'Invalid parameters: path: expected string, received number' },
];

/** What an explored policy function does: answer a permission, or throw. */
type FunctionAnswer = Permission | 'threw';

const FUNCTION_ANSWERS: readonly FunctionAnswer[] = ['allow', 'ask', 'deny', 'threw'];

/** How a function's verdict shows in a label, after `f`: `?` ask, `!` deny, `!!` threw (denies). */
const FUNCTION_MARK: Readonly<Record<FunctionAnswer, string>> = { allow: '', ask: '?', deny: '!', threw: '!!' };

/** The explored policy functions; a denial or an error names its call, so each is told apart. */
const POLICY_FUNCTIONS: Readonly<Record<FunctionAnswer, PolicyFunction>> = {
  allow: () => 'allow',
  ask: () => 'ask',
  deny: (call) => ({ deny: `refused [call ${call.callId}]` }),
  threw: (call) => {
    throw new Error(`broke on [call ${call.callId}]`);
  },
};

/** The context explored policy functions get (they read only the call). */
const POLICY_CONTEXT: PolicyContext = {
  sessionId: undefined,
  cwd: '.',
  turn: 1,
  decisions: [],
  signal: new AbortController().signal,
};

/** One call of a pattern: safe (`S`) or unsafe (`U`), with its permission, or the function that judges it. */
interface CallPattern {
  readonly safe: boolean;
  readonly permission: Permission;
  /** A policy function judges the call (with `policyVerdicts`); `permission` is then its answer. */
  readonly fn?: FunctionAnswer;
}

/**
 * Every safe (`S`) / unsafe (`U`) pattern of 1..k calls, e.g. `S`, `U`, `SS`, `SU`, …, each call
 * with each explored permission (`S?` asks, `U!` is denied by the policy).
 */
function callPatterns(
  maxToolCalls: number,
  permissions: readonly Permission[],
  functions: readonly FunctionAnswer[],
): CallPattern[][] {
  const judged = (safe: boolean): CallPattern[] => [
    ...permissions.map((permission) => ({ safe, permission })),
    ...functions.map((fn) => ({ safe, permission: fn === 'threw' ? ('deny' as const) : fn, fn })),
  ];
  const one = [true, false].flatMap(judged);
  const patterns: CallPattern[][] = [];
  let layer: CallPattern[][] = [[]];
  for (let n = 1; n <= maxToolCalls; n++) {
    layer = layer.flatMap((prefix) => one.map((call) => [...prefix, call]));
    patterns.push(...layer);
  }
  return patterns;
}

function patternLabel(pattern: readonly CallPattern[]): string {
  const mark = (call: CallPattern): string =>
    call.fn === undefined ? PERMISSION_MARK[call.permission] : `f${FUNCTION_MARK[call.fn]}`;
  return pattern.map((call) => `${call.safe ? 'S' : 'U'}${mark(call)}`).join('');
}

function callsOf(pattern: readonly CallPattern[]): ToolCall[] {
  return pattern.map((call, i) => ({ callId: `c${i}`, name: call.safe ? 'look' : 'change', arguments: {} }));
}

/** The provider explored reasoning parts name. */
export const EXPLORED_PROVIDER = 'explored';

/** The reasoning parts of the turn labelled `label`: a signed one and a redacted one, in that order. */
function reasoningOf(label: string): readonly ReasoningContent[] {
  return [
    { type: 'reasoning', provider: EXPLORED_PROVIDER, text: `thinking of ${label}`, signature: `sig ${label}` },
    { type: 'redacted_reasoning', provider: EXPLORED_PROVIDER, data: `hidden ${label}` },
  ];
}

/**
 * What the policy says about each call, as the model-request effect finds it: each call's rule
 * (fixed, or a function) asked through the agent's `verdictOf`.
 */
function verdictsOf(pattern: readonly CallPattern[], calls: readonly ToolCall[]): PolicyVerdict[] {
  return pattern.map((call, i) => {
    const toolCall = calls[i] as ToolCall;
    const rule = call.fn === undefined ? call.permission : POLICY_FUNCTIONS[call.fn];
    const verdict = verdictOf({ rule, key: toolCall.name }, toolCall, () => POLICY_CONTEXT);
    if (isPromiseLike(verdict)) throw new Error('an explored policy function answered asynchronously');
    return verdict;
  });
}

/** A turn's `permissions` (and, with policy functions, `verdicts`), as the effect adds them. */
function judgedCalls(pattern: readonly CallPattern[], calls: readonly ToolCall[], withVerdicts: boolean) {
  if (withVerdicts && calls.length > 0) {
    const verdicts = verdictsOf(pattern, calls);
    return { permissions: verdicts.map((verdict) => verdict.permission), verdicts };
  }
  const permissions = pattern.map((call) => call.permission);
  return permissions.some((permission) => permission !== 'allow') ? { permissions } : {};
}

function modelTurn(
  pattern: readonly CallPattern[],
  usage: TokenUsage,
  elapsedMs: number,
  reasoning?: string,
  withVerdicts = false,
): ModelTurnEvent {
  const toolCalls = callsOf(pattern);
  const turn: ModelTurn = {
    text: pattern.length === 0 ? 'final answer' : '',
    toolCalls,
    concurrencySafe: pattern.map((call) => call.safe),
    ...judgedCalls(pattern, toolCalls, withVerdicts),
    ...(reasoning === undefined ? {} : { reasoning: reasoningOf(reasoning) }),
    usage,
    elapsedMs,
  };
  return { type: 'MODEL_TURN', turn };
}

function reachableTimes(options: AlphabetOptions, context: AgentContext): number[] {
  const times = options.elapsedSteps.filter((ms) => ms >= context.elapsedMs);
  return times.length > 0 ? times : [context.elapsedMs];
}

function aborts(context: AgentContext): LabelledEvent[] {
  const role = context.aborting === undefined ? 'matters' : 'noise';
  return [
    { label: 'ABORT(aborted)', role, event: { type: 'ABORT', reason: 'aborted', message: 'run aborted' } },
    { label: 'ABORT(time)', role, event: { type: 'ABORT', reason: 'time_budget', message: 'time budget used up' } },
  ];
}

const VERDICTS: readonly (readonly [string, GuardrailOutcome])[] = [
  ['pass', 'pass'],
  ['replace', 'replace'],
  ['tripwire', 'tripwire'],
];

/** A check's answer: one verdict of `outcome` by the guardrail `g` (on call `index`'s result, for `toolResult`). */
function checked(stage: GuardrailStage, outcome: GuardrailOutcome, context: AgentContext, index?: number) {
  const call = index === undefined ? undefined : context.tools.calls[index];
  const verdict: GuardrailVerdict = {
    guardrail: 'g',
    stage,
    outcome,
    ...(outcome === 'tripwire' ? { reason: 'tripped' } : {}),
    ...(call === undefined ? {} : { callId: call.callId }),
  };
  const event: GuardrailCheckedEvent = {
    type: 'GUARDRAIL_CHECKED',
    stage,
    verdicts: [verdict],
    value: outcome === 'replace' ? '[redacted]' : (context.response ?? 'ok'),
    usage: zero,
    ...(index === undefined
      ? {}
      : { settled: settle(index, { success: true, output: 'ok' }, context.elapsedMs) as ToolSettledEvent }),
  };
  return event;
}

/** The guardrails' answers that can come in a state: on the input, the final answer, or a result being checked. */
function guardrailEvents(context: AgentContext, state: string): LabelledEvent[] {
  const events: LabelledEvent[] = [];
  const gate = context.guardrails;
  const stageVerdicts = (stage: GuardrailStage, index?: number) =>
    VERDICTS.filter(([, outcome]) => stage !== 'input' || outcome !== 'replace').map(([kind, outcome]) => ({
      label: `${stage}${index === undefined ? '' : `#${index}`}(${kind})`,
      role: 'matters' as const,
      event: checked(stage, outcome, context, index),
    }));
  if (state === 'awaitingModel' && gate.inputChecking) events.push(...stageVerdicts('input'));
  if (state === 'guardingOutput') events.push(...stageVerdicts('output'));
  if (state === 'executingTools') for (const index of gate.checking) events.push(...stageVerdicts('toolResult', index));
  return events;
}

/** Something inside the loop broke (an effect threw): possible in every state that is not final. */
function internalError(): LabelledEvent {
  return { label: 'internal error', role: 'matters', event: { type: 'INTERNAL_ERROR', message: 'an effect threw' } };
}

function settle(index: number, result: ToolResult, elapsedMs: number): ExploredEvent {
  return { type: 'TOOL_SETTLED', index, result, elapsedMs };
}

function modelEvents(options: AlphabetOptions, context: AgentContext): LabelledEvent[] {
  const events: LabelledEvent[] = [];
  const functions = options.policyVerdicts ? FUNCTION_ANSWERS : [];
  for (const usage of options.usages) {
    const tokens = `u${usage.promptTokens}+${usage.completionTokens}`;
    for (const ms of reachableTimes(options, context)) {
      for (const pattern of [[], ...callPatterns(options.maxToolCalls, options.permissions ?? ['allow'], functions)]) {
        const label = `model(${pattern.length === 0 ? 'text' : patternLabel(pattern)} ${tokens} t${ms})`;
        const reasoning = options.reasoning ? label : undefined;
        const event = modelTurn(pattern, usage, ms, reasoning, options.policyVerdicts === true);
        events.push({ label, role: 'matters', event });
      }
    }
  }
  if (options.structuredOutput) {
    const usage = options.usages[0] ?? zero;
    const ms = reachableTimes(options, context)[0] ?? context.elapsedMs;
    for (const [kind, outputCheck] of OUTPUT_CHECKS) {
      const turn: ModelTurn = {
        text: `answer ${kind}`,
        toolCalls: [],
        concurrencySafe: [],
        usage,
        elapsedMs: ms,
        outputCheck,
        ...(options.reasoning ? { reasoning: reasoningOf(`answer ${kind}`) } : {}),
      };
      events.push({ label: `model(answer ${kind})`, role: 'matters', event: { type: 'MODEL_TURN', turn } });
    }
  }
  if (options.context) events.push(...overfullTurns(options, context));
  const error: ModelErrorEvent = { type: 'MODEL_ERROR', message: 'model stream failed' };
  events.push({ label: 'model(error)', role: 'matters', event: error });
  const sourceError: ToolSourceErrorEvent = { type: 'TOOL_SOURCE_ERROR', message: 'a tool source failed to refresh' };
  events.push({ label: 'tools(refresh error)', role: 'matters', event: sourceError });
  return events;
}

/** Model turns (text, one safe call, one unsafe call) after which the context is over its limit. */
function overfullTurns(options: AlphabetOptions, context: AgentContext): LabelledEvent[] {
  const usage = options.usages[0] ?? zero;
  const ms = reachableTimes(options, context)[0] ?? context.elapsedMs;
  const patterns: CallPattern[][] = [[], [{ safe: true, permission: 'allow' }], [{ safe: false, permission: 'allow' }]];
  return patterns.map((pattern) => {
    const event = modelTurn(pattern, usage, ms);
    const turn: ModelTurn = { ...event.turn, contextTokens: EXPLORED_CONTEXT_LIMIT + 50, tokenScale: 1 };
    const label = `model(${pattern.length === 0 ? 'text' : patternLabel(pattern)} over context)`;
    return { label, role: 'matters', event: { type: 'MODEL_TURN', turn } };
  });
}

/** In `compacting`: a compaction that makes room (with each usage), one that finds nothing, a failed summary. */
function compactionEvents(options: AlphabetOptions, context: AgentContext): LabelledEvent[] {
  const ms = reachableTimes(options, context)[0] ?? context.elapsedMs;
  const compaction: Compaction = {
    strategy: 'summarise',
    from: 1,
    to: 3,
    messages: [{ role: 'assistant', content: 'summary' }],
    tokensBefore: context.contextTokens,
    tokensAfter: Math.floor(EXPLORED_CONTEXT_LIMIT / 2),
  };
  const events: LabelledEvent[] = options.usages.map((usage) => ({
    label: `compacted(u${usage.promptTokens}+${usage.completionTokens})`,
    role: 'matters',
    event: { type: 'COMPACTED', compaction, usage, elapsedMs: ms },
  }));
  events.push({
    label: 'compacted(nothing)',
    role: 'matters',
    event: { type: 'COMPACTED', compaction: undefined, usage: zero, elapsedMs: ms },
  });
  events.push({ label: 'summary(error)', role: 'matters', event: { type: 'MODEL_ERROR', message: 'summary failed' } });
  return events;
}

function toolEvents(options: AlphabetOptions, context: AgentContext): LabelledEvent[] {
  const events: LabelledEvent[] = [];
  for (let index = 0; index < context.tools.nextToStart; index++) {
    // A call whose result awaits its guardrails has settled: its verdict comes next, not another result.
    if (context.tools.results[index] !== undefined || context.guardrails.checking.includes(index)) continue;
    for (const [kind, result] of options.invalidCalls ? [...RESULTS, INVALID] : RESULTS) {
      for (const ms of reachableTimes(options, context)) {
        const label = `settle#${index}(${kind} t${ms})`;
        events.push({ label, role: 'matters', event: settle(index, result, ms) });
      }
    }
    if (options.childUsage !== undefined) events.push(...childSettles(index, options.childUsage, context));
  }
  return events;
}

/** A sub-agent's call settling with its child's usage (see {@link AlphabetOptions.childUsage}). */
function childSettles(index: number, usage: TokenUsage, context: AgentContext): LabelledEvent[] {
  const tokens = `u${usage.promptTokens}+${usage.completionTokens}`;
  return CHILD_RESULTS.map(([kind, result]) => ({
    label: `settle#${index}(child ${kind} ${tokens})`,
    role: 'matters' as const,
    event: { ...settle(index, result, context.elapsedMs), usage } as ExploredEvent,
  }));
}

/** Stale events a real run can deliver late; each must leave the state as it is. */
function noiseEvents(context: AgentContext, state: string): LabelledEvent[] {
  const ok = RESULTS[0]?.[1] ?? { success: true };
  const events: LabelledEvent[] = [
    { label: 'stale settle#out-of-range', role: 'noise', event: settle(context.tools.calls.length, ok, 0) },
  ];
  const settled = context.tools.results.findIndex((result) => result !== undefined);
  if (state === 'executingTools' && settled >= 0) {
    events.push({ label: `duplicate settle#${settled}`, role: 'noise', event: settle(settled, ok, 0) });
  }
  if (state !== 'awaitingModel') {
    events.push({ label: 'stale model(text)', role: 'noise', event: modelTurn([], { ...zero }, 0) });
  }
  if (context.tools.permissions.length > 0) events.push(...staleDecisions(context, state));
  return events;
}

/**
 * The decisions a person can give: approve or deny each call that waits; and, while nothing
 * else can happen (`awaitingApproval`), suspend.
 */
function decisionEvents(context: AgentContext, state: string): LabelledEvent[] {
  const events: LabelledEvent[] = [];
  for (const call of waitingCalls(context.tools)) {
    events.push({ label: `approve(${call.callId})`, role: 'matters', event: { type: 'APPROVE', callId: call.callId } });
    events.push({
      label: `deny(${call.callId})`,
      role: 'matters',
      event: { type: 'DENY', callId: call.callId, reason: 'no' },
    });
  }
  if (state === 'awaitingApproval') events.push({ label: 'suspend', role: 'matters', event: { type: 'SUSPEND' } });
  return events;
}

/** Decisions on calls that do not wait (decided, allowed, or unknown), and a suspend while tools run. */
function staleDecisions(context: AgentContext, state: string): LabelledEvent[] {
  const waiting = new Set(waitingCalls(context.tools).map((call) => call.callId));
  const events: LabelledEvent[] = [];
  const stale = context.tools.calls.find((call) => !waiting.has(call.callId));
  if (stale !== undefined) {
    events.push({
      label: `stale approve(${stale.callId})`,
      role: 'noise',
      event: { type: 'APPROVE', callId: stale.callId },
    });
  }
  events.push({ label: 'approve(unknown)', role: 'noise', event: { type: 'APPROVE', callId: 'unknown' } });
  if (state === 'executingTools') events.push({ label: 'suspend(running)', role: 'noise', event: { type: 'SUSPEND' } });
  return events;
}

const zero: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** The events to try in a state: what can happen there, plus stale noise (all a final state gets). */
export function alphabetFor(options: AlphabetOptions, state: string, context: AgentContext): LabelledEvent[] {
  if (state === 'done' || state === 'error') {
    return aborts(context).map((abort) => ({ ...abort, label: `late ${abort.label}`, role: 'noise' }));
  }
  // A turn held for the input's verdict answered the request in flight: no other answer comes.
  const held = context.guardrails.heldTurn !== undefined;
  const own =
    state === 'awaitingModel'
      ? held
        ? []
        : modelEvents(options, context)
      : state === 'compacting'
        ? compactionEvents(options, context)
        : state === 'guardingOutput'
          ? []
          : [...toolEvents(options, context), ...decisionEvents(context, state)];
  const checks = options.guardrails ? guardrailEvents(context, state) : [];
  return [...own, ...checks, ...aborts(context), internalError(), ...noiseEvents(context, state)];
}
