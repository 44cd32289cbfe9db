/**
 * The part of the AI SDK's language-model specification (`@ai-sdk/provider`, `LanguageModelV4`,
 * and the same shape of V3 and V2) this adapter uses, declared here so that the package's types
 * need no `@ai-sdk/provider` installed. A provider package's model is assignable to
 * {@link AiSdkLanguageModel} (test/adapters/ai-sdk checks it against the real types).
 */

/** A JSON value as the AI SDK passes it. */
export type AiSdkJson = null | string | number | boolean | AiSdkJson[] | { [key: string]: AiSdkJson | undefined };

/** Provider-specific options or metadata: `{ [provider]: { … } }`. */
export type AiSdkProviderMetadata = Record<string, Record<string, AiSdkJson | undefined>>;

/** One message of the AI SDK's prompt (`LanguageModelV4Message`), as this adapter builds it. */
export type AiSdkMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: AiSdkTextPart[] }
  | { role: 'assistant'; content: (AiSdkTextPart | AiSdkReasoningPart | AiSdkToolCallPart)[] }
  | { role: 'tool'; content: AiSdkToolResultPart[] };

/** Text of a prompt message. */
export interface AiSdkTextPart {
  type: 'text';
  text: string;
}

/** Reasoning sent back to the model that made it, with its provider options (signatures). */
export interface AiSdkReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: AiSdkProviderMetadata;
}

/** A tool call of an assistant message. */
export interface AiSdkToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The call's provider metadata as it came (Gemini's thought signature). */
  providerOptions?: AiSdkProviderMetadata;
}

/** A tool's result, as text. */
export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text'; value: string };
}

/** A function tool offered to the model. */
export interface AiSdkFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** What this adapter passes to `doStream`. */
export interface AiSdkCallOptions {
  prompt: AiSdkMessage[];
  tools?: AiSdkFunctionTool[];
  responseFormat?: { type: 'json'; schema?: Record<string, unknown>; name?: string };
  abortSignal?: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
  providerOptions?: AiSdkProviderMetadata;
}

/** A stream part, read by its `type` (`text-delta`, `tool-call`, `finish`, `error`, …). */
export interface AiSdkStreamPart {
  readonly type: string;
}

/**
 * An AI SDK language model (`LanguageModelV4`, V3 or V2 from a provider package such as
 * `@ai-sdk/google`, `@ai-sdk/amazon-bedrock` or `@ai-sdk/openai-compatible`). Only streaming
 * is used.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  /** `google.generative-ai`, `amazon-bedrock`, … */
  readonly provider: string;
  readonly modelId: string;
  doStream(options: AiSdkCallOptions): PromiseLike<{ stream: ReadableStream<AiSdkStreamPart> }>;
}
