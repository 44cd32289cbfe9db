import type { FinishReason } from '../../core/stream-event.js';

/** A Chat Completions `finish_reason` as ours. */
export function mapOpenAIFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
