import { estimateContentTokens } from '../context/part-tokens.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../context/token-estimate.js';
import type { MessageContent } from '../core/content-parts.js';
import { type ToolResult, toolMessageContent } from '../core/tool-result.js';
import type { AgentContext, StopInfo } from './agent-machine-types.js';
import { softLimitMessage } from './budget-message.js';
import type { ModelTurn } from './model-turn.js';

/** Whether the next request's context would exceed the run's context limit. */
export function contextOverLimit(context: AgentContext): boolean {
  return context.limits.contextLimit !== undefined && context.contextTokens > context.limits.contextLimit;
}

/** Estimated tokens one more message of this content adds to the context, in the provider's unit. */
function messageTokens(content: MessageContent, tokenScale: number): number {
  return Math.ceil((MESSAGE_OVERHEAD_TOKENS + estimateContentTokens(content)) * tokenScale);
}

/** Estimated tokens a tool result adds to the context (its `tool` message), in the provider's unit. */
export function resultTokens(result: ToolResult, tokenScale: number): number {
  return messageTokens(toolMessageContent(result), tokenScale);
}

/** The context's size after a failing structured answer and the harness's note about it. */
export function tokensAfterRetry(context: AgentContext, turn: ModelTurn, problem: string): number {
  if (context.limits.contextLimit === undefined) return context.contextTokens;
  return (turn.contextTokens ?? context.contextTokens) + messageTokens(problem, turn.tokenScale ?? context.tokenScale);
}

/**
 * The context's size after the harness's soft-limit warning (a note the next request carries),
 * so that a note which tips the context over its limit is compacted for like any other message.
 */
export function tokensAfterWarning(context: AgentContext): number {
  if (context.limits.contextLimit === undefined) return context.contextTokens;
  const hit = context.limits.budget.softLimit(context.turns, context.usage, context.elapsedMs);
  if (hit === null) return context.contextTokens;
  return context.contextTokens + messageTokens(softLimitMessage(hit), context.tokenScale);
}

/** The stop when the context is over its limit and nothing old enough is left to compact. */
export function contextOverflowStop(context: AgentContext): StopInfo {
  return {
    reason: 'context_overflow',
    message:
      `the context needs about ${context.contextTokens} tokens, above context.maxTokens ${context.limits.contextLimit}, ` +
      'and nothing older is left to compact (the most recent turns are kept): raise maxTokens or lower keepTurns',
  };
}
