import type { ReasoningContent } from '../../core/messages.js';
import { type FinishReason, StreamEvent } from '../../core/stream-event.js';
import type { TokenUsage } from '../../core/usage.js';
import { ModelError } from '../http/model-error.js';
import { parseJsonArguments } from '../http/parse-json-arguments.js';
import { classifyAiSdkError } from './ai-sdk-errors.js';
import type { AiSdkProviderMetadata, AiSdkStreamPart } from './ai-sdk-types.js';

/** The fields of the stream parts this adapter reads (V4, V3 and V2 share them). */
interface Part extends AiSdkStreamPart {
  readonly id?: string;
  readonly delta?: string;
  readonly textDelta?: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly input?: unknown;
  readonly providerExecuted?: boolean;
  readonly providerMetadata?: AiSdkProviderMetadata;
  readonly usage?: unknown;
  readonly finishReason?: unknown;
  readonly error?: unknown;
}

/** The `id` prefix of a reasoning part that holds a tool call's provider metadata, not reasoning. */
export const TOOL_CALL_METADATA = 'tool-call-metadata:';

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
};

/** V4/V3 `{ unified, raw }` or V2's plain string. */
function finishReason(raw: unknown): FinishReason {
  const unified = typeof raw === 'string' ? raw : (raw as { unified?: unknown } | undefined)?.unified;
  return (typeof unified === 'string' ? FINISH[unified] : undefined) ?? 'other';
}

function count(value: unknown): number | undefined {
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/**
 * Usage, from V4/V3's `{ inputTokens: { total, cacheRead, cacheWrite }, outputTokens: { total,
 * reasoning } }` or V2's flat counts; undefined when the provider reported none.
 */
export function usageOf(raw: unknown): TokenUsage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as Record<string, unknown>;
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  const nested = typeof input === 'object' && input !== null;
  const inputs = (nested ? input : {}) as Record<string, unknown>;
  const outputs = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const promptTokens = nested ? count(inputs.total) : count(input);
  const completionTokens = typeof output === 'object' ? count(outputs.total) : count(output);
  if (promptTokens === undefined && completionTokens === undefined) return undefined;
  const prompt = promptTokens ?? 0;
  const completion = completionTokens ?? 0;
  const result: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: prompt + completion,
  };
  const cached = nested ? count(inputs.cacheRead) : count(usage.cachedInputTokens);
  const written = nested ? count(inputs.cacheWrite) : undefined;
  const reasoning = nested ? count(outputs.reasoning) : count(usage.reasoningTokens);
  if (cached !== undefined && cached > 0) result.cachedPromptTokens = cached;
  if (written !== undefined && written > 0) result.cacheWriteTokens = written;
  if (reasoning !== undefined && reasoning > 0) result.reasoningTokens = reasoning;
  return result;
}

/** A reasoning block being streamed. */
interface OpenReasoning {
  text: string;
  metadata: AiSdkProviderMetadata | undefined;
}

function mergeMetadata(
  known: AiSdkProviderMetadata | undefined,
  more: AiSdkProviderMetadata | undefined,
): AiSdkProviderMetadata | undefined {
  if (more === undefined) return known;
  if (known === undefined) return more;
  const merged: AiSdkProviderMetadata = { ...known };
  for (const [provider, values] of Object.entries(more)) merged[provider] = { ...merged[provider], ...values };
  return merged;
}

/**
 * Maps an AI SDK model's stream parts onto our events: text, reasoning (each block one
 * `reasoning_complete`, its provider metadata kept for the way back), tool-input deltas and
 * finished tool calls (those the provider ran itself are not ours to run, and are skipped), the
 * finish with usage, and `error` parts as a thrown {@link ModelError}. A stream that ends before
 * its `finish` part is a failure, never a complete turn.
 */
export async function* mapAiSdkStream(
  parts: AsyncIterable<AiSdkStreamPart>,
  provider: string,
  where: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  const reasoning = new Map<string, OpenReasoning>();
  const toolNames = new Map<string, string>();
  const closeReasoning = (id: string): StreamEvent | undefined => {
    const open = reasoning.get(id);
    if (open === undefined) return undefined;
    reasoning.delete(id);
    const part: ReasoningContent =
      open.metadata === undefined
        ? { type: 'reasoning', provider, text: open.text }
        : { type: 'reasoning', provider, text: open.text, signature: JSON.stringify(open.metadata) };
    return StreamEvent.reasoningComplete(part);
  };
  for await (const raw of parts) {
    const part = raw as Part;
    switch (part.type) {
      case 'text-delta': {
        const delta = part.delta ?? part.textDelta;
        if (typeof delta === 'string' && delta !== '') yield StreamEvent.textDelta(delta);
        break;
      }
      case 'reasoning-start':
        reasoning.set(part.id ?? '', { text: '', metadata: part.providerMetadata });
        break;
      case 'reasoning-delta': {
        const id = part.id ?? '';
        const open = reasoning.get(id) ?? { text: '', metadata: undefined };
        reasoning.set(id, open);
        open.metadata = mergeMetadata(open.metadata, part.providerMetadata);
        if (typeof part.delta === 'string' && part.delta !== '') {
          open.text += part.delta;
          yield StreamEvent.reasoningDelta(part.delta);
        }
        break;
      }
      case 'reasoning-end': {
        const open = reasoning.get(part.id ?? '');
        if (open !== undefined) open.metadata = mergeMetadata(open.metadata, part.providerMetadata);
        const done = closeReasoning(part.id ?? '');
        if (done !== undefined) yield done;
        break;
      }
      case 'tool-input-start':
        if (part.providerExecuted === true || typeof part.id !== 'string') break;
        toolNames.set(part.id, part.toolName ?? '');
        yield {
          type: 'tool_call_begin',
          toolCall: { callId: part.id, name: part.toolName ?? '', arguments: '' },
        };
        break;
      case 'tool-input-delta': {
        const name = toolNames.get(part.id ?? '');
        if (name !== undefined && typeof part.delta === 'string' && part.delta !== '') {
          yield StreamEvent.toolCallDelta({ callId: part.id as string, name, argumentsDelta: part.delta });
        }
        break;
      }
      case 'tool-call': {
        if (part.providerExecuted === true) break;
        const input = part.input;
        const args = typeof input === 'string' ? parseJsonArguments(input) : (input ?? {});
        const callId = part.toolCallId ?? '';
        // A call's own metadata (Gemini's thought signature) must go back with it: kept as a
        // reasoning part of the message, which is journaled with its calls and sent back only here.
        if (part.providerMetadata !== undefined) {
          yield StreamEvent.reasoningComplete({
            type: 'reasoning',
            provider,
            id: `${TOOL_CALL_METADATA}${callId}`,
            signature: JSON.stringify(part.providerMetadata),
          });
        }
        yield StreamEvent.toolCallComplete({ callId, name: part.toolName ?? '', arguments: args as never });
        break;
      }
      case 'finish':
        // Reasoning a provider left open is still the turn's: journaled before the end.
        for (const id of [...reasoning.keys()]) {
          const done = closeReasoning(id);
          if (done !== undefined) yield done;
        }
        yield StreamEvent.messageComplete(usageOf(part.usage), finishReason(part.finishReason));
        return;
      case 'error':
        throw classifyAiSdkError(part.error, where, signal);
      default:
        break; // stream-start, response-metadata, text-start/-end, sources, files, raw: nothing to add
    }
  }
  if (signal?.aborted) throw new ModelError('aborted', `${where}: the request was aborted`);
  throw new ModelError('stream', `${where}: the stream ended before its finish part`);
}
