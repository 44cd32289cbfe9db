import { z } from 'zod';

/** Usage as the Messages API reports it (`message_start`, and cumulatively in `message_delta`). */
export const anthropicUsage = z.object({
  input_tokens: z.number().int().nonnegative().nullish(),
  output_tokens: z.number().int().nonnegative().nullish(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
  output_tokens_details: z.object({ thinking_tokens: z.number().int().nonnegative().nullish() }).nullish(),
});

const contentBlock = z.object({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
});

const delta = z.object({
  type: z.string(),
  text: z.string().optional(),
  partial_json: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
});

/** One event of a streamed Message. Unknown event types pass (the API adds them over time). */
export const anthropicStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ usage: anthropicUsage.nullish() }) }),
  z.object({ type: z.literal('content_block_start'), index: z.number().int(), content_block: contentBlock }),
  z.object({ type: z.literal('content_block_delta'), index: z.number().int(), delta }),
  z.object({ type: z.literal('content_block_stop'), index: z.number().int() }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish() }),
    usage: anthropicUsage.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
]);

/** A validated stream event. */
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEvent>;
/** Validated usage. */
export type AnthropicUsage = z.infer<typeof anthropicUsage>;

/** A prompt-cache breakpoint: the prefix up to and including the block carrying it is cached. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A thinking block sent back as it came (its signature included). */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** A redacted thinking block sent back as it came. */
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** The image media types the Messages API takes (those an image part may have). */
export type AnthropicImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image block: its bytes (base64) or a URL the API fetches. */
export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string };
}

/**
 * A document block: a PDF (base64, or a URL the API fetches) or plain text (the decoded text),
 * with the file's name as its title.
 */
export interface AnthropicDocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'url'; url: string }
    | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
}

/** A block of a user turn's content, or of a `tool_result`'s: text, an image or a document. */
export type AnthropicPartBlock = { type: 'text'; text: string } | AnthropicImageBlock | AnthropicDocumentBlock;

/** A content block that may carry a cache breakpoint (thinking blocks may not). */
export type AnthropicCacheableBlock = (
  | AnthropicPartBlock
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicPartBlock[]; is_error?: boolean }
) & { cache_control?: AnthropicCacheControl };

/** A content block we send. */
export type AnthropicContentBlock = AnthropicCacheableBlock | AnthropicThinkingBlock | AnthropicRedactedThinkingBlock;

/** The system prompt as a list of text blocks, the form that can carry a cache breakpoint. */
export type AnthropicSystemBlock = { type: 'text'; text: string; cache_control?: AnthropicCacheControl };

/** A message as the Messages API takes it: roles alternate, system is separate. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** A tool as the Messages API takes it. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}
