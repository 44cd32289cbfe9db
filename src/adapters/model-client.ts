import type { Message } from '../core/messages.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../tools/tool-params.js';

/** Options of one model request. */
export interface ChatCompletionOptions {
  /** Aborted when the run is aborted or its time budget ends: cancel the request at once. */
  readonly signal?: AbortSignal;
}

/**
 * Anything that can stream a model turn. `messages` is the context as sent (the agent passes
 * a snapshot, so keeping it is safe; the messages themselves are frozen). `tools` is absent or
 * empty when tools are withheld.
 */
export interface ModelClient {
  /** Streams one model turn for the context (and tools, unless withheld); honours `options.signal`. */
  chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: ChatCompletionOptions,
  ): AsyncIterable<StreamEvent> | Iterable<StreamEvent>;
}
