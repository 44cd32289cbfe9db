import type { ToolCall } from '../../core/messages.js';
import type { ToolCallDelta } from '../../core/stream-event.js';
import { parseJsonArguments } from '../http/parse-json-arguments.js';
import type { OpenAIToolCallDelta } from './openai-types.js';

interface PartialCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Gathers streamed tool-call fragments per `index`, across chunks and interleaved between
 * calls. A fragment without an index is placed by its position in the chunk; a new id on a
 * slot already holding another id (servers that reuse index 0) starts a new call.
 */
export class ToolCallAccumulator {
  private readonly calls: PartialCall[] = [];
  private readonly slots = new Map<number, PartialCall>();

  /**
   * Adds the `delta.tool_calls` of one chunk; returns its pieces of arguments, in order, each
   * with its call's id (`call_<n>` while the server has sent none) and name so far.
   */
  add(deltas: readonly OpenAIToolCallDelta[]): ToolCallDelta[] {
    const pieces: ToolCallDelta[] = [];
    deltas.forEach((delta, position) => {
      const index = delta.index ?? position;
      let call = this.slots.get(index);
      const id = delta.id ?? undefined;
      if (call === undefined || (id !== undefined && call.id !== undefined && call.id !== id)) {
        call = { id, name: '', arguments: '' };
        this.calls.push(call);
        this.slots.set(index, call);
      }
      if (call.id === undefined && id !== undefined) call.id = id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) {
        call.arguments += delta.function.arguments;
        const callId = call.id && call.id !== '' ? call.id : `call_${this.calls.indexOf(call)}`;
        pieces.push({ callId, name: call.name, argumentsDelta: delta.function.arguments });
      }
    });
    return pieces;
  }

  /** The calls, in the order they began; ids a server left out become `call_<n>`. */
  complete(): ToolCall[] {
    return this.calls.map((call, n) => ({
      callId: call.id && call.id !== '' ? call.id : `call_${n}`,
      name: call.name,
      arguments: parseJsonArguments(call.arguments),
    }));
  }
}
