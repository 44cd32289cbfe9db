import { debugLog } from '../../core/debug-log.js';
import type { JsonObject, ToolCall } from '../../core/messages.js';
import { type FinishReason, StreamEvent } from '../../core/stream-event.js';
import { ModelError } from '../http/model-error.js';
import { parseJsonArguments } from '../http/parse-json-arguments.js';
import { type AnthropicStreamEvent, anthropicStreamEvent } from './anthropic-types.js';
import { type AnthropicUsageTotals, convertAnthropicUsage, foldAnthropicUsage } from './convert-usage.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { ThinkingBlocks } from './thinking-blocks.js';

const KNOWN = new Set(anthropicStreamEvent.options.map((option) => option.shape.type.value));

function parseEvent(raw: unknown, where: string): AnthropicStreamEvent | undefined {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !KNOWN.has(type as AnthropicStreamEvent['type'])) {
    // A new event type is not an error: skipped, and said under DEBUG=agent-harness:anthropic.
    debugLog('agent-harness:anthropic', `${where}: skipped a stream event of unknown type '${String(type)}'`);
    return undefined;
  }
  const parsed = anthropicStreamEvent.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = issue ? `${type}.${issue.path.join('.')}: ${issue.message}` : type;
  throw new ModelError('stream', `${where}: unexpected event in the stream (${problem})`);
}

interface PartialToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  json: string;
}

function completeToolUse(use: PartialToolUse): ToolCall {
  const given = use.input;
  const hasInput = typeof given === 'object' && given !== null && Object.keys(given).length > 0;
  const args = use.json === '' && hasInput ? (given as JsonObject) : parseJsonArguments(use.json);
  return { callId: use.id, name: use.name, arguments: args };
}

/**
 * Maps Messages API stream events onto ours: text deltas, thinking deltas (`reasoning_delta`)
 * and pieces of tool-call arguments (`tool_call_delta`, from `input_json_delta`) as they come;
 * at each block's `content_block_stop`, a `tool_use` block whole once its `input_json_delta`
 * fragments are in, and a `thinking` block (its signature included) or a `redacted_thinking`
 * block as a `reasoning_complete`, so parts and calls keep the order the model gave them in;
 * and `message_complete` at `message_stop` with usage from `message_start`/`message_delta`.
 * Pings and unknown events are skipped. A stream that ends before `message_stop` is a failure:
 * the turn is incomplete. `where` names the endpoint in errors.
 */
export async function* mapAnthropicStream(
  events: AsyncIterable<unknown>,
  where = 'anthropic',
  answerTool?: string,
): AsyncGenerator<StreamEvent> {
  // Blocks that call the forced answer tool of a structured answer: their input is the answer's text.
  const answers = new Map<number, { json: string; input: unknown }>();
  let calledTools = false;
  const totals: AnthropicUsageTotals = { input: 0, output: 0 };
  let reported = false;
  const uses = new Map<number, PartialToolUse>();
  const thinking = new ThinkingBlocks();
  let finish: FinishReason | undefined;
  let stopped = false;
  for await (const raw of events) {
    const event = parseEvent(raw, where);
    if (event === undefined) continue;
    switch (event.type) {
      case 'message_start':
        foldAnthropicUsage(totals, event.message.usage);
        reported ||= Boolean(event.message.usage);
        break;
      case 'message_delta':
        finish = mapAnthropicStopReason(event.delta.stop_reason);
        foldAnthropicUsage(totals, event.usage);
        reported ||= Boolean(event.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (thinking.start(event.index, block)) {
          const piece = thinking.addText(event.index, block.thinking ?? '');
          if (piece !== undefined) yield StreamEvent.reasoningDelta(piece);
          break;
        }
        if (block.type === 'text' && block.text) yield StreamEvent.textDelta(block.text);
        if (block.type === 'tool_use' && answerTool !== undefined && block.name === answerTool) {
          answers.set(event.index, { json: '', input: block.input });
        } else if (block.type === 'tool_use') {
          calledTools = true;
          uses.set(event.index, { id: block.id ?? '', name: block.name ?? '', input: block.input, json: '' });
        }
        break;
      }
      case 'content_block_delta': {
        const { delta } = event;
        if (delta.type === 'text_delta' && delta.text) yield StreamEvent.textDelta(delta.text);
        if (delta.type === 'thinking_delta') {
          const piece = thinking.addText(event.index, delta.thinking ?? '');
          if (piece !== undefined) yield StreamEvent.reasoningDelta(piece);
        }
        if (delta.type === 'signature_delta' && delta.signature !== undefined)
          thinking.sign(event.index, delta.signature);
        const answer = answers.get(event.index);
        if (delta.type === 'input_json_delta' && answer && delta.partial_json) {
          answer.json += delta.partial_json;
          yield StreamEvent.textDelta(delta.partial_json);
        }
        const use = uses.get(event.index);
        if (delta.type === 'input_json_delta' && use && delta.partial_json) {
          use.json += delta.partial_json;
          yield StreamEvent.toolCallDelta({ callId: use.id, name: use.name, argumentsDelta: delta.partial_json });
        }
        break;
      }
      case 'content_block_stop': {
        const part = thinking.stop(event.index);
        if (part !== undefined) yield StreamEvent.reasoningComplete(part);
        const answer = answers.get(event.index);
        answers.delete(event.index);
        // An input given whole at the block's start, with no deltas, is the answer as is.
        if (answer && answer.json === '' && answer.input !== undefined)
          yield StreamEvent.textDelta(JSON.stringify(answer.input));
        const use = uses.get(event.index);
        uses.delete(event.index);
        if (use) yield StreamEvent.toolCallComplete(completeToolUse(use));
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      case 'ping':
        break;
    }
  }
  if (!stopped) throw new ModelError('stream', `${where}: the stream ended before the model finished its turn`);
  // A turn that only called the answer tool ended with its answer, not with tool calls.
  const reason = finish === 'tool_calls' && !calledTools && answerTool !== undefined ? 'stop' : finish;
  yield StreamEvent.messageComplete(reported ? convertAnthropicUsage(totals) : undefined, reason ?? 'other');
}
