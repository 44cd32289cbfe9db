import { HarnessError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import type { ChatCompletionOptions, ModelClient, RequestedOutput } from '../core/model-client.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-params.js';

/** What a scripted turn may produce. */
export type ScriptedEvents = readonly StreamEvent[] | AsyncIterable<StreamEvent> | Iterable<StreamEvent>;

/** One scripted turn: a fixed list of events, or a function of the request that returns them. */
export type ScriptedTurn =
  | readonly StreamEvent[]
  | ((messages: readonly Message[], tools: readonly ToolDefinition[]) => ScriptedEvents | Promise<ScriptedEvents>);

/** A request the {@link ScriptedClient} received (a copy, taken when it arrived). */
export interface RecordedRequest {
  readonly messages: readonly Message[];
  /** The tool definitions sent; empty when tools were withheld. */
  readonly tools: readonly ToolDefinition[];
  /** The structured output asked for, when the run asked for one. */
  readonly output?: RequestedOutput;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(`request aborted: ${String(reason ?? 'aborted')}`);
}

/**
 * A model client that plays a script, one turn per request, and records every request.
 * A request past the end of the script fails with `script_exhausted`.
 */
export class ScriptedClient implements ModelClient {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  private readonly turns: readonly ScriptedTurn[];

  constructor(turns: readonly ScriptedTurn[]) {
    if (!Array.isArray(turns)) throw new HarnessError('invalid_argument', 'ScriptedClient takes an array of turns');
    this.turns = turns;
  }

  /** How many requests were made. */
  get calls(): number {
    return this.requests.length;
  }

  async *chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const request: RecordedRequest = {
      messages: messages.slice(),
      tools: tools ? tools.slice() : [],
      ...(options.output ? { output: options.output } : {}),
    };
    this.requests.push(request);
    const turn = this.turns[this.requests.length - 1];
    if (turn === undefined) {
      throw new HarnessError(
        'script_exhausted',
        `ScriptedClient: request ${this.requests.length} arrived but the script has only ${this.turns.length} turn(s)`,
      );
    }
    const events = typeof turn === 'function' ? await turn(request.messages, request.tools) : turn;
    const { signal } = options;
    for await (const event of events) {
      if (signal?.aborted) throw abortError(signal);
      yield event;
    }
  }
}
