/** Token counts reported by a model for one request, or summed over many. */
export interface TokenUsage {
  /** Tokens the model read (the prompt, including history and tool definitions). */
  readonly promptTokens: number;
  /** Tokens the model wrote. */
  readonly completionTokens: number;
  /** `promptTokens + completionTokens`, as the provider reported it. */
  readonly totalTokens: number;
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
  return { promptTokens, completionTokens, totalTokens };
}

/** Exact sum of two usages (token counts are integers, so no rounding happens). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
