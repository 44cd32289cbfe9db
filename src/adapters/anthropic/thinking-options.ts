/**
 * Extended thinking, the `thinking` option of `AnthropicClient`: a token budget (manual extended
 * thinking), or `adaptive`, where the model decides when and how much to think (on the models
 * that have it).
 */
export type AnthropicThinking =
  | {
      /** Tokens the model may spend thinking in one turn: at least 1024, and less than `max_tokens`. */
      readonly budgetTokens: number;
      /**
       * Thinking between tool calls too (the `interleaved-thinking-2025-05-14` beta header, for the
       * models that need it; adaptive thinking interleaves without it).
       */
      readonly interleaved?: boolean;
    }
  | {
      /** Always `'adaptive'`. */
      readonly type: 'adaptive';
    };

/** The beta header that turns on interleaved thinking with a budget. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/** The Messages API's `thinking` parameter. */
export type AnthropicThinkingParam = { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };

/** {@link AnthropicThinking} as the Messages API's `thinking` parameter. */
export function toThinkingParam(thinking: AnthropicThinking): AnthropicThinkingParam {
  return 'budgetTokens' in thinking ? { type: 'enabled', budget_tokens: thinking.budgetTokens } : { type: 'adaptive' };
}

/**
 * `max_tokens` of a turn: the one asked for, else the default plus the thinking budget (the
 * budget counts toward `max_tokens` and must stay below it).
 */
export function maxTokensWith(
  asked: number | undefined,
  fallback: number,
  thinking: AnthropicThinking | undefined,
): number {
  if (asked !== undefined) return asked;
  return thinking !== undefined && 'budgetTokens' in thinking ? fallback + thinking.budgetTokens : fallback;
}

/**
 * The request's `anthropic-beta` header when interleaved thinking is asked for: the one in
 * `headers` with the interleaved-thinking beta added; undefined when nothing is to add.
 */
export function betaHeaderWith(
  headers: Readonly<Record<string, string>> | undefined,
  thinking: AnthropicThinking | undefined,
): string | undefined {
  if (thinking === undefined || !('budgetTokens' in thinking) || thinking.interleaved !== true) return undefined;
  const given = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  const betas = (given ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
  return betas.includes(INTERLEAVED_THINKING_BETA) ? undefined : [...betas, INTERLEAVED_THINKING_BETA].join(',');
}
