import { type FinishReason, StreamEvent } from '../../core/stream-event.js';
import type { TokenUsage } from '../../core/usage.js';
import { ModelError } from '../http/model-error.js';
import { convertOpenAIUsage } from './convert-usage.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import { openAIChunk } from './openai-types.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

function parseChunk(raw: unknown, where: string): ReturnType<typeof openAIChunk.parse> {
  const parsed = openAIChunk.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = issue ? `${issue.path.join('.') || 'chunk'}: ${issue.message}` : 'unreadable chunk';
  throw new ModelError('stream', `${where}: unexpected chunk in the stream (${problem})`);
}

/**
 * Maps streamed Chat Completion chunks onto our events: text deltas and pieces of tool-call
 * arguments (`tool_call_delta`) as they come; then, once
 * the stream ended, each tool call whole and `message_complete` with the usage (which some
 * servers send after the finish reason, in a last chunk without choices, and some never send).
 * A stream that ends before any finish reason is a failure: the turn is incomplete. `where`
 * names the endpoint in error messages.
 */
export async function* mapOpenAIStream(chunks: AsyncIterable<unknown>, where = 'openai'): AsyncGenerator<StreamEvent> {
  const calls = new ToolCallAccumulator();
  let finishReason: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  for await (const raw of chunks) {
    const chunk = parseChunk(raw, where);
    if (chunk.usage) usage = convertOpenAIUsage(chunk.usage);
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice === undefined) continue;
    const content = choice.delta?.content;
    if (content) yield StreamEvent.textDelta(content);
    if (choice.delta?.tool_calls) {
      for (const piece of calls.add(choice.delta.tool_calls)) yield StreamEvent.toolCallDelta(piece);
    }
    if (choice.finish_reason) finishReason = mapOpenAIFinishReason(choice.finish_reason);
  }
  if (finishReason === undefined) {
    throw new ModelError('stream', `${where}: the stream ended before the model finished its turn`);
  }
  for (const call of calls.complete()) yield StreamEvent.toolCallComplete(call);
  yield StreamEvent.messageComplete(usage, finishReason);
}
