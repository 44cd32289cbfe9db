import type { BudgetKind } from '../core/agent-event.js';
import { HarnessError } from '../core/errors.js';
import type { TokenUsage } from '../core/usage.js';
import { refuseMisspelledKeys } from './option-keys.js';

/** A hard budget stop. */
export type BudgetStopReason = 'turn_budget' | 'cost_budget' | 'token_budget' | 'time_budget';

/** Options of {@link Budget}. Every limit is optional; a missing one never stops a run. */
export interface BudgetOptions {
  /** Stop once this many model requests were made (checked after each observation). */
  readonly maxTurns?: number;
  /** Stop once the cost of the run's usage exceeds this (in the currency of the rates). */
  readonly maxCost?: number;
  /** Stop once the run's total tokens exceed this. */
  readonly maxTotalTokens?: number;
  /** Stop, aborting the model stream and tools in flight, after this many milliseconds. */
  readonly maxWallClockMs?: number;
  /** Price of 1,000 prompt tokens. Default 0.001. */
  readonly inputRatePer1k?: number;
  /** Price of 1,000 completion tokens. Default 0.002. */
  readonly outputRatePer1k?: number;
  /** Price of 1,000 prompt tokens read from the provider's cache. Default: `inputRatePer1k`. */
  readonly cachedInputRatePer1k?: number;
  /** Price of 1,000 prompt tokens written to the provider's cache. Default: `inputRatePer1k`. */
  readonly cacheWriteRatePer1k?: number;
  /**
   * Fraction (0..1] of any budget after which the agent warns once and asks for a final answer
   * with tools withheld. Off when absent.
   */
  readonly softLimitRatio?: number;
  /**
   * Rates of other models, by name: usage a fallback chain's model answered (its `usage` entry
   * names it) is priced at that model's rates; any other usage at this budget's own.
   */
  readonly modelRates?: Readonly<Record<string, ModelRates>>;
}

/** The rates of one model in {@link BudgetOptions.modelRates}. */
export type ModelRates = Pick<
  BudgetOptions,
  'inputRatePer1k' | 'outputRatePer1k' | 'cachedInputRatePer1k' | 'cacheWriteRatePer1k'
>;

/** Rates with every default filled in. */
interface Rates {
  readonly input: number;
  readonly output: number;
  readonly cachedInput: number;
  readonly cacheWrite: number;
}

function costAt(rates: Rates, usage: TokenUsage): number {
  const { cachedPromptTokens: cached, cacheWriteTokens: written } = usage;
  if (cached === undefined && written === undefined) {
    return (usage.promptTokens * rates.input + usage.completionTokens * rates.output) / 1000;
  }
  // Prompt totals include the tokens read from and written to the cache: each part at its rate.
  const read = cached ?? 0;
  const write = written ?? 0;
  const plain = Math.max(0, usage.promptTokens - read - write);
  return (
    (plain * rates.input +
      read * rates.cachedInput +
      write * rates.cacheWrite +
      usage.completionTokens * rates.output) /
    1000
  );
}

/** `usage` less `part` (a part of it), count by count. */
function subtract(usage: TokenUsage, part: TokenUsage): TokenUsage {
  const less = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? undefined : Math.max(0, a - (b ?? 0));
  const rest: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    promptTokens: Math.max(0, usage.promptTokens - part.promptTokens),
    completionTokens: Math.max(0, usage.completionTokens - part.completionTokens),
    totalTokens: Math.max(0, usage.totalTokens - part.totalTokens),
  };
  const cached = less(usage.cachedPromptTokens, part.cachedPromptTokens);
  const written = less(usage.cacheWriteTokens, part.cacheWriteTokens);
  if (cached !== undefined) rest.cachedPromptTokens = cached;
  if (written !== undefined) rest.cacheWriteTokens = written;
  return rest;
}

/** Which budget crossed the soft limit, and how far it is used. */
export interface SoftLimitHit {
  /** The budget that crossed the limit. */
  readonly budget: BudgetKind;
  /** Fraction of that budget used. */
  readonly used: number;
}

/** The option keys of a {@link Budget}. */
export const BUDGET_KEYS = [
  'maxTurns',
  'maxCost',
  'maxTotalTokens',
  'maxWallClockMs',
  'inputRatePer1k',
  'outputRatePer1k',
  'cachedInputRatePer1k',
  'cacheWriteRatePer1k',
  'softLimitRatio',
  'modelRates',
] as const;

/** Relative slack so that a cost equal to the limit (up to float rounding) does not count as over. */
const COST_EPSILON = 1e-9;

/**
 * The longest wall-clock budget: Node's timers hold at most 2^31 - 1 ms, and a longer one fires
 * at once. A run that waits longer (for a person) is suspended and resumed instead.
 */
export const MAX_WALL_CLOCK_MS = 2_147_483_647;

function positive(value: number | undefined, name: string, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const ok = typeof value === 'number' && value > 0 && (integer ? Number.isInteger(value) : Number.isFinite(value));
  if (!ok) {
    throw new HarnessError(
      'invalid_config',
      `budget.${name} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}`,
    );
  }
  return value;
}

function rate(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new HarnessError('invalid_config', `budget.${name} must be a non-negative number, got ${String(value)}`);
  }
  return value;
}

/**
 * Hard and soft limits of a run. Pure: every check is a function of turns, usage and elapsed
 * time, and monotone (more use never un-stops a run). Turns stop when the count *reaches* the
 * maximum; cost and tokens stop when use *exceeds* it; time stops when it is used up.
 */
export class Budget {
  /** Model requests allowed per run; none when undefined. */
  readonly maxTurns: number | undefined;
  /** Cost allowed per run, at this budget's rates. */
  readonly maxCost: number | undefined;
  /** Total tokens allowed per run. */
  readonly maxTotalTokens: number | undefined;
  /** Wall-clock milliseconds allowed per run. */
  readonly maxWallClockMs: number | undefined;
  /** Price of 1,000 prompt tokens. */
  readonly inputRatePer1k: number;
  /** Price of 1,000 completion tokens. */
  readonly outputRatePer1k: number;
  /** Price of 1,000 cached prompt tokens (`inputRatePer1k` unless given). */
  readonly cachedInputRatePer1k: number;
  /** Price of 1,000 prompt tokens written to the cache (`inputRatePer1k` unless given). */
  readonly cacheWriteRatePer1k: number;
  /** Soft limit as a fraction of any budget; off when undefined. */
  readonly softLimitRatio: number | undefined;
  /** Other models' rates, by name (see {@link BudgetOptions.modelRates}). */
  readonly modelRates: Readonly<Record<string, ModelRates>> | undefined;
  private readonly ratesByModel: ReadonlyMap<string, Rates> | undefined;

  constructor(options: BudgetOptions = {}) {
    if (typeof options !== 'object' || options === null)
      throw new HarnessError(
        'invalid_config',
        `budget options must be an object, got ${options === null ? 'null' : typeof options}`,
      );
    refuseMisspelledKeys(options, BUDGET_KEYS, 'budget');
    this.maxTurns = positive(options.maxTurns, 'maxTurns', true);
    this.maxCost = positive(options.maxCost, 'maxCost', false);
    this.maxTotalTokens = positive(options.maxTotalTokens, 'maxTotalTokens', true);
    this.maxWallClockMs = positive(options.maxWallClockMs, 'maxWallClockMs', false);
    if (this.maxWallClockMs !== undefined && this.maxWallClockMs > MAX_WALL_CLOCK_MS)
      throw new HarnessError(
        'invalid_config',
        `budget.maxWallClockMs must be at most ${MAX_WALL_CLOCK_MS} ms (about 24.8 days, the longest timer Node keeps), got ${this.maxWallClockMs}`,
      );
    this.inputRatePer1k = rate(options.inputRatePer1k, 'inputRatePer1k', 0.001);
    this.outputRatePer1k = rate(options.outputRatePer1k, 'outputRatePer1k', 0.002);
    this.cachedInputRatePer1k = rate(options.cachedInputRatePer1k, 'cachedInputRatePer1k', this.inputRatePer1k);
    this.cacheWriteRatePer1k = rate(options.cacheWriteRatePer1k, 'cacheWriteRatePer1k', this.inputRatePer1k);
    const soft = options.softLimitRatio;
    if (soft !== undefined && !(typeof soft === 'number' && soft > 0 && soft <= 1)) {
      throw new HarnessError('invalid_config', `budget.softLimitRatio must be in (0, 1], got ${String(soft)}`);
    }
    this.softLimitRatio = soft;
    const given = options.modelRates;
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
      throw new HarnessError('invalid_config', 'budget.modelRates must be an object of rates by model name');
    }
    this.modelRates = given;
    this.ratesByModel =
      options.modelRates === undefined
        ? undefined
        : new Map(
            Object.entries(options.modelRates).map(([model, given]) => {
              const at = (name: string): string => `modelRates['${model}'].${name}`;
              const input = rate(given.inputRatePer1k, at('inputRatePer1k'), this.inputRatePer1k);
              return [
                model,
                {
                  input,
                  output: rate(given.outputRatePer1k, at('outputRatePer1k'), this.outputRatePer1k),
                  cachedInput: rate(given.cachedInputRatePer1k, at('cachedInputRatePer1k'), input),
                  cacheWrite: rate(given.cacheWriteRatePer1k, at('cacheWriteRatePer1k'), input),
                },
              ];
            }),
          );
  }

  private get ownRates(): Rates {
    return {
      input: this.inputRatePer1k,
      output: this.outputRatePer1k,
      cachedInput: this.cachedInputRatePer1k,
      cacheWrite: this.cacheWriteRatePer1k,
    };
  }

  /**
   * The cost of some usage at this budget's rates; the parts a named model answered
   * ({@link TokenUsage.byModel}) at that model's {@link BudgetOptions.modelRates} when given.
   */
  usageCost(usage: TokenUsage): number {
    const own = this.ownRates;
    const byModel = usage.byModel;
    if (byModel === undefined || this.ratesByModel === undefined) return costAt(own, usage);
    let rest: TokenUsage = usage;
    let cost = 0;
    for (const [model, part] of Object.entries(byModel)) {
      const rates = this.ratesByModel.get(model);
      if (rates === undefined) continue; // priced with the rest, at the budget's own rates
      cost += costAt(rates, part);
      rest = subtract(rest, part);
    }
    return cost + costAt(own, rest);
  }

  /** The first hard limit reached, in the order turns, cost, tokens, time; or null. */
  stopReason(turnCount: number, usage: TokenUsage, elapsedMs = 0): BudgetStopReason | null {
    if (this.maxTurns !== undefined && turnCount >= this.maxTurns) return 'turn_budget';
    if (this.maxCost !== undefined && this.usageCost(usage) > this.maxCost * (1 + COST_EPSILON)) return 'cost_budget';
    if (this.maxTotalTokens !== undefined && usage.totalTokens > this.maxTotalTokens) return 'token_budget';
    if (this.maxWallClockMs !== undefined && elapsedMs >= this.maxWallClockMs) return 'time_budget';
    return null;
  }

  /** The first budget used at least `softLimitRatio` of the way, or null (always null when off). */
  softLimit(turnCount: number, usage: TokenUsage, elapsedMs = 0): SoftLimitHit | null {
    const ratio = this.softLimitRatio;
    if (ratio === undefined) return null;
    const uses: [BudgetKind, number | undefined, number][] = [
      ['turns', this.maxTurns, turnCount],
      ['cost', this.maxCost, this.usageCost(usage)],
      ['tokens', this.maxTotalTokens, usage.totalTokens],
      ['time', this.maxWallClockMs, elapsedMs],
    ];
    for (const [budget, max, value] of uses) {
      if (max !== undefined && value / max >= ratio) return { budget, used: value / max };
    }
    return null;
  }

  /** A copy with other options. */
  with(options: BudgetOptions): Budget {
    return new Budget({ ...this.options(), ...options });
  }

  /** The options that rebuild this budget. */
  options(): BudgetOptions {
    const out: { -readonly [K in keyof BudgetOptions]: BudgetOptions[K] } = {
      inputRatePer1k: this.inputRatePer1k,
      outputRatePer1k: this.outputRatePer1k,
    };
    if (this.cachedInputRatePer1k !== this.inputRatePer1k) out.cachedInputRatePer1k = this.cachedInputRatePer1k;
    if (this.cacheWriteRatePer1k !== this.inputRatePer1k) out.cacheWriteRatePer1k = this.cacheWriteRatePer1k;
    if (this.maxTurns !== undefined) out.maxTurns = this.maxTurns;
    if (this.maxCost !== undefined) out.maxCost = this.maxCost;
    if (this.maxTotalTokens !== undefined) out.maxTotalTokens = this.maxTotalTokens;
    if (this.maxWallClockMs !== undefined) out.maxWallClockMs = this.maxWallClockMs;
    if (this.softLimitRatio !== undefined) out.softLimitRatio = this.softLimitRatio;
    if (this.modelRates !== undefined) out.modelRates = this.modelRates;
    return out;
  }
}
