import type { JsonObject, Message } from './messages.js';
import type { StreamEvent } from './stream-event.js';
import type { ToolDefinition } from './tool-params.js';

/** Options of one model request. */
export interface ChatCompletionOptions {
  /** Aborted when the run is aborted or its time budget ends: cancel the request at once. */
  readonly signal?: AbortSignal;
  /**
   * The run asks for a structured final answer (`agent.run(input, { output })`): the answer is
   * JSON text matching `schema`. A client uses the provider's structured-output mode where it
   * has one; a client that ignores it still works (the agent validates the text and asks again).
   */
  readonly output?: RequestedOutput;
  /**
   * The stored session the request belongs to, when it has an id: a stable key a client may give
   * the provider's prompt cache (OpenAI `prompt_cache_key`), so a session's requests share it.
   */
  readonly sessionId?: string;
}

/** The shape of a structured final answer, as sent to the model. */
export interface RequestedOutput {
  /** A name for it (`final_answer`): the OpenAI schema's name, the Anthropic answer tool's name. */
  readonly name: string;
  /** JSON Schema of the answer (from the run's zod schema). */
  readonly schema: JsonObject;
}

/** What {@link ModelClient.chatCompletion} returns: the turn's events, or a promise of them. */
export type ModelStream = AsyncIterable<StreamEvent> | Iterable<StreamEvent>;

/**
 * Anything that can stream a model turn. `messages` is the context as sent: a new array for each
 * request, which the client may keep or change (the messages in it are frozen). `tools` is absent
 * or empty when tools are withheld. An `async chatCompletion` (a promise of the stream) works
 * too: its rejection ends the run with `model_error` and the rejection's message.
 */
export interface ModelClient {
  /** The model asked for, when the client knows it (traces name their spans after it). */
  readonly model?: string;
  /** The provider (`openai`, `anthropic`, …), when the client knows it (for traces). */
  readonly provider?: string;
  /** Streams one model turn for the context (and tools, unless withheld); honours `options.signal`. */
  chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: ChatCompletionOptions,
  ): ModelStream | PromiseLike<ModelStream>;
  /**
   * The provider request body (JSON) this client would send for these arguments, without sending
   * it. Built-in HTTP clients have it; a cassette records and compares it (`recordCassette`'s
   * `wire`, `replayCassette`'s `wire`) so a change inside an adapter's conversion diverges.
   */
  wireRequest?(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: ChatCompletionOptions,
  ): unknown;
}
