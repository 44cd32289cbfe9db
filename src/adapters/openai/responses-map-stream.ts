import { debugLog } from '../../core/debug-log.js';
import type { ReasoningPart } from '../../core/messages.js';
import { PARTS_JOIN } from '../../core/reasoning.js';
import { type FinishReason, StreamEvent } from '../../core/stream-event.js';
import type { TokenUsage } from '../../core/usage.js';
import { ModelError } from '../http/model-error.js';
import { parseJsonArguments } from '../http/parse-json-arguments.js';
import { RESPONSES_PROVIDER } from './responses-convert-input.js';
import { convertResponsesUsage } from './responses-convert-usage.js';
import { mapResponsesFinishReason } from './responses-map-finish-reason.js';
import { type ResponsesOutputItem, type ResponsesStreamEvent, responsesStreamEvent } from './responses-types.js';

/** Where notes on skipped events go (`DEBUG=agent-harness:openai`). */
const DEBUG_NAMESPACE = 'agent-harness:openai';

const KNOWN = new Set<string>(responsesStreamEvent.options.map((option) => option.shape.type.value));

/** Events of the documented sequence that carry nothing we need (the `.done` twins repeat the deltas). */
const QUIET = new Set([
  'response.created',
  'response.queued',
  'response.in_progress',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.refusal.done',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.done',
  'response.function_call_arguments.done',
]);

function parseEvent(raw: unknown, where: string): ResponsesStreamEvent | undefined {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !KNOWN.has(type)) {
    if (!(typeof type === 'string' && QUIET.has(type))) {
      debugLog(DEBUG_NAMESPACE, `${where}: skipped a stream event of unknown type '${String(type)}'`);
    }
    return undefined;
  }
  const parsed = responsesStreamEvent.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = issue ? `${type}.${issue.path.join('.')}: ${issue.message}` : type;
  throw new ModelError('stream', `${where}: unexpected event in the stream (${problem})`);
}

interface PartialCall {
  readonly outputIndex: number;
  readonly itemId: string | undefined;
  callId: string;
  name: string;
  arguments: string;
}

function reasoningPart(item: ResponsesOutputItem): ReasoningPart {
  const summary = (item.summary ?? []).map((part) => part.text);
  const text = (item.content ?? []).flatMap((part) =>
    part.type === 'reasoning_text' && typeof part.text === 'string' ? [part.text] : [],
  );
  return {
    type: 'reasoning',
    provider: RESPONSES_PROVIDER,
    ...(item.id ? { id: item.id } : {}),
    ...(item.encrypted_content ? { encrypted: item.encrypted_content } : {}),
    ...(summary.length > 0 ? { summary: summary.join(PARTS_JOIN) } : {}),
    ...(summary.length > 1 ? { summaryParts: summary } : {}),
    ...(text.length > 0 ? { text: text.join(PARTS_JOIN) } : {}),
    ...(text.length > 1 ? { textParts: text } : {}),
  };
}

function failure(where: string, what: string, message: string | null | undefined, code: string | null | undefined) {
  const detail = `${message || 'no message'}${code ? ` (${code})` : ''}`;
  return new ModelError('stream', `${where}: ${what}: ${detail}`);
}

/** The function calls of one response, by output index, as their arguments stream. */
class Calls {
  private readonly open: PartialCall[] = [];

  begin(outputIndex: number, item: ResponsesOutputItem): void {
    const callId = item.call_id || item.id || `call_${outputIndex}`;
    const itemId = item.id ?? undefined;
    this.open.push({ outputIndex, itemId, callId, name: item.name ?? '', arguments: item.arguments ?? '' });
  }

  find(outputIndex: number | null | undefined, itemId: string | null | undefined): PartialCall | undefined {
    return this.open.find((call) =>
      outputIndex !== null && outputIndex !== undefined ? call.outputIndex === outputIndex : call.itemId === itemId,
    );
  }

  /** The call whole: the item's own fields win over what streamed. */
  finish(outputIndex: number, item: ResponsesOutputItem) {
    const call = this.find(outputIndex, item.id);
    if (call) this.open.splice(this.open.indexOf(call), 1);
    return {
      callId: item.call_id || call?.callId || item.id || `call_${outputIndex}`,
      name: item.name || call?.name || '',
      arguments: parseJsonArguments(item.arguments ?? call?.arguments ?? ''),
    };
  }

  /** Calls a server left without their `output_item.done`, whole, in the order they began. */
  leftOver() {
    return this.open.splice(0).map((call) => ({
      callId: call.callId,
      name: call.name,
      arguments: parseJsonArguments(call.arguments),
    }));
  }
}

/**
 * Maps Responses API stream events onto ours: text (and refusal) deltas, reasoning summary and
 * reasoning text deltas, and pieces of function-call arguments as they come; each function call
 * whole and each reasoning item as a `reasoning_complete` part (summary parts, and reasoning text
 * parts, joined by a blank line, and kept one by one when there are several; its encrypted content included)
 * at its `response.output_item.done`, in the order of the output; `message_complete` with the
 * usage once the response completed (or ended incomplete). `response.failed` and `error` events
 * are failures, as is a stream that ends before the response did. Unknown event types are
 * skipped, with a debug note. `where` names the endpoint in errors.
 */
export async function* mapResponsesStream(
  events: AsyncIterable<unknown>,
  where = 'openai',
): AsyncGenerator<StreamEvent> {
  const calls = new Calls();
  let calledTools = false;
  let finish: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  /** The reasoning text part the last reasoning text delta belonged to. */
  let textIndex = 0;
  for await (const raw of events) {
    const event = parseEvent(raw, where);
    if (event === undefined) continue;
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta) yield StreamEvent.textDelta(event.delta);
        break;
      case 'response.reasoning_summary_text.delta':
        if (event.delta) yield StreamEvent.reasoningDelta(event.delta);
        break;
      case 'response.reasoning_text.delta': {
        // The parts of a reasoning text are joined by a blank line in the finished part: so are the deltas.
        const index = event.content_index ?? 0;
        if (index > 0 && index !== textIndex) yield StreamEvent.reasoningDelta(PARTS_JOIN);
        textIndex = index;
        if (event.delta) yield StreamEvent.reasoningDelta(event.delta);
        break;
      }
      case 'response.reasoning_summary_part.added':
        // The parts of a summary are joined by a blank line in the finished part: so are the deltas.
        if ((event.summary_index ?? 0) > 0) yield StreamEvent.reasoningDelta(PARTS_JOIN);
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') calls.begin(event.output_index, event.item);
        break;
      case 'response.function_call_arguments.delta': {
        const call = calls.find(event.output_index, event.item_id);
        if (call === undefined || event.delta === '') break;
        call.arguments += event.delta;
        yield StreamEvent.toolCallDelta({ callId: call.callId, name: call.name, argumentsDelta: event.delta });
        break;
      }
      case 'response.output_item.done':
        if (event.item.type === 'function_call') {
          calledTools = true;
          yield StreamEvent.toolCallComplete(calls.finish(event.output_index, event.item));
        } else if (event.item.type === 'reasoning') {
          yield StreamEvent.reasoningComplete(reasoningPart(event.item));
        }
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const status = event.type === 'response.completed' ? 'completed' : 'incomplete';
        for (const call of calls.leftOver()) {
          calledTools = true;
          yield StreamEvent.toolCallComplete(call);
        }
        finish = mapResponsesFinishReason(status, calledTools, event.response.incomplete_details?.reason);
        if (event.response.usage) usage = convertResponsesUsage(event.response.usage);
        break;
      }
      case 'response.failed':
        throw failure(where, 'the response failed', event.response.error?.message, event.response.error?.code);
      case 'error':
        throw failure(where, 'error in the stream', event.message, event.code);
    }
  }
  if (finish === undefined) {
    throw new ModelError('stream', `${where}: the stream ended before the model finished its turn`);
  }
  yield StreamEvent.messageComplete(usage, finish);
}
