import type { FinishReason } from '../../core/stream-event.js';

/**
 * Why a response ended, as ours: a completed one that called functions ended for `tool_calls`,
 * else `stop`; an incomplete one by its `incomplete_details.reason`.
 */
export function mapResponsesFinishReason(
  status: 'completed' | 'incomplete',
  calledTools: boolean,
  incompleteReason?: string | null,
): FinishReason {
  if (status === 'completed') return calledTools ? 'tool_calls' : 'stop';
  switch (incompleteReason) {
    case 'max_output_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
