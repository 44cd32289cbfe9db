/**
 * The part of the AI SDK's language-model specification (`@ai-sdk/provider`, `LanguageModelV4`,
 * V3 and V2, which differ only in their image and file parts here) this adapter uses, declared
 * here so that the package's types need no `@ai-sdk/provider` installed. A provider package's
 * model of any of these versions is assignable to {@link AiSdkLanguageModel} (test/adapters/ai-sdk
 * checks it against the real types).
 */

/** A JSON value as the AI SDK passes it. */
export type AiSdkJson = null | string | number | boolean | AiSdkJson[] | { [key: string]: AiSdkJson | undefined };

/** Provider-specific options or metadata: `{ [provider]: { … } }`. */
export type AiSdkProviderMetadata = Record<string, Record<string, AiSdkJson | undefined>>;

/** One message of the AI SDK's prompt (`LanguageModelV4Message`), as this adapter builds it. */
export type AiSdkMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: (AiSdkTextPart | AiSdkFilePart)[] }
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

/** The specification versions this adapter speaks (`LanguageModelV2`, V3, V4). */
export type AiSdkSpecification = 'v2' | 'v3' | 'v4';

/**
 * A file's bytes: V4 tags them (`{type: 'data', data}`, base64, or `{type: 'url', url}`); V2 and
 * V3 take base64 text or a `URL` as they are.
 */
export type AiSdkFileData = string | URL | { type: 'data'; data: string } | { type: 'url'; url: URL };

/** An image or a file of a user message (`LanguageModelV4FilePart`; images are files with an `image/` type). */
export interface AiSdkFilePart {
  type: 'file';
  mediaType: string;
  data: AiSdkFileData;
  filename?: string;
}

/**
 * A part of a tool result's `content` output: text, and images and files in the form of each
 * specification (V4 `file`; V3 `image-data`, `image-url`, `file-data`, `file-url`; V2 `media`).
 */
export type AiSdkToolContentPart =
  | { type: 'text'; text: string }
  | {
      type: 'file';
      data: { type: 'data'; data: string } | { type: 'url'; url: URL };
      mediaType: string;
      filename?: string;
    }
  | { type: 'image-data' | 'file-data'; data: string; mediaType: string; filename?: string }
  | { type: 'image-url' | 'file-url'; url: string }
  | { type: 'media'; data: string; mediaType: string };

/** A tool's output: text, or (when it returned parts) `content`. */
export type AiSdkToolResultOutput =
  | { type: 'text'; value: string }
  | { type: 'content'; value: AiSdkToolContentPart[] };

/** A tool's result. */
export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: AiSdkToolResultOutput;
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
  /**
   * Takes {@link AiSdkCallOptions} in the form of the model's version. Declared with the loosest
   * prompt (`readonly unknown[]`) that every version's call options fit, as a method (so its
   * parameter compares both ways): a V2, V3 or V4 model is an `AiSdkLanguageModel` alike.
   */
  doStream(options: {
    readonly prompt: readonly unknown[];
    readonly abortSignal?: AbortSignal;
  }): PromiseLike<{ stream: ReadableStream<AiSdkStreamPart> }>;
}
