import { HarnessError } from './errors.js';

/** Token counts reported by a model for one request, or summed over many. */
export interface TokenUsage {
  /** Tokens the model read (the prompt, including history and tool definitions). */
  readonly promptTokens: number;
  /** Tokens the model wrote. */
  readonly completionTokens: number;
  /** `promptTokens + completionTokens`, as the provider reported it. */
  readonly totalTokens: number;
  /** Of `promptTokens`, those read from the provider's prompt cache (charged at the cached rate). */
  readonly cachedPromptTokens?: number;
  /** Of `promptTokens`, those written to the prompt cache (Anthropic; charged at the cache-write rate). */
  readonly cacheWriteTokens?: number;
  /** Of `completionTokens`, those spent reasoning. */
  readonly reasoningTokens?: number;
  /**
   * Of this usage, the parts that named models answered (a fallback chain's turns), so that a
   * budget prices each at its model's rates. Never journaled: the `usage` entries' `model` rebuilds it.
   */
  readonly byModel?: Readonly<Record<string, TokenUsage>>;
}

/** `usage`, attributed to `model` (see {@link TokenUsage.byModel}). */
export function usageOfModel(usage: TokenUsage, model: string): TokenUsage {
  const { byModel: _ignored, ...counts } = usage;
  return { ...counts, byModel: { [model]: counts } };
}

function addByModel(
  a: TokenUsage['byModel'],
  b: TokenUsage['byModel'],
): Readonly<Record<string, TokenUsage>> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const sum: Record<string, TokenUsage> = { ...a };
  for (const [model, usage] of Object.entries(b)) {
    const known = sum[model];
    sum[model] = known === undefined ? usage : addUsage(known, usage);
  }
  return sum;
}

/** Usage of nothing: the identity of {@link addUsage}. */
export const ZERO_USAGE: TokenUsage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
});

/** Builds a {@link TokenUsage}; `totalTokens` defaults to the sum of the other two. */
export function tokenUsage(
  promptTokens: number,
  completionTokens: number,
  totalTokens: number = promptTokens + completionTokens,
): TokenUsage {
  // Frozen: a session keeps it as it is instead of copying it.
  return Object.freeze({ promptTokens, completionTokens, totalTokens });
}

/** Exact sum of two usages (token counts are integers, so no rounding happens). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  // The detail counts only when either side has them: old journals fold as before.
  if (a.cachedPromptTokens !== undefined || b.cachedPromptTokens !== undefined) {
    sum.cachedPromptTokens = (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0);
  }
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined) {
    sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  }
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  if (a.byModel !== undefined || b.byModel !== undefined) sum.byModel = addByModel(a.byModel, b.byModel);
  return sum;
}

const USAGE_KEYS = ['promptTokens', 'completionTokens', 'totalTokens'] as const;
const SNAKE_CASE = {
  promptTokens: 'prompt_tokens',
  completionTokens: 'completion_tokens',
  totalTokens: 'total_tokens',
};

/** Whether `value` is a token count: a non-negative integer. */
export function isTokenCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/**
 * The usage a model reported, checked: camelCase or snake_case keys (`prompt_tokens`, as the
 * seed's and OpenAI's objects have them), `totalTokens` the sum of the other two when absent.
 * Anything else (a missing, negative or fractional count) is the model's fault: it throws a
 * `model_error` naming the bad count, so the turn is discarded.
 */
export function usageFromModel(reported: unknown): TokenUsage {
  const raw = (typeof reported === 'object' && reported !== null ? reported : {}) as Record<string, unknown>;
  if (isTokenCount(raw.promptTokens) && isTokenCount(raw.completionTokens) && isTokenCount(raw.totalTokens)) {
    checkDetails(raw);
    return raw as unknown as TokenUsage; // the usual shape: taken as it is
  }
  const count = (key: (typeof USAGE_KEYS)[number]): unknown => raw[key] ?? raw[SNAKE_CASE[key]];
  const promptTokens = count('promptTokens');
  const completionTokens = count('completionTokens');
  const totalTokens =
    count('totalTokens') ??
    (isTokenCount(promptTokens) && isTokenCount(completionTokens) ? promptTokens + completionTokens : undefined);
  const usage = { promptTokens, completionTokens, totalTokens };
  for (const key of USAGE_KEYS) {
    if (!isTokenCount(usage[key])) {
      throw new HarnessError(
        'model_error',
        `the model reported invalid usage: ${key} must be a non-negative integer, got ${String(usage[key])}`,
      );
    }
  }
  const details = Object.fromEntries(
    DETAIL_KEYS.map((key) => [key, raw[key] ?? raw[DETAIL_SNAKE_CASE[key]]]).filter(([, value]) => value !== undefined),
  );
  checkDetails(details);
  return { ...usage, ...details } as TokenUsage;
}

/** The optional counts of {@link TokenUsage}. */
const DETAIL_KEYS = ['cachedPromptTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;
const DETAIL_SNAKE_CASE = {
  cachedPromptTokens: 'cached_prompt_tokens',
  cacheWriteTokens: 'cache_write_tokens',
  reasoningTokens: 'reasoning_tokens',
};

function checkDetails(raw: Record<string, unknown>): void {
  for (const key of DETAIL_KEYS) {
    const value = raw[key];
    if (value !== undefined && !isTokenCount(value)) {
      throw new HarnessError(
        'model_error',
        `the model reported invalid usage: ${key} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
}
