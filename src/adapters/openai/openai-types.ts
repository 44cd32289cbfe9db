import { z } from 'zod';

/** One entry of `delta.tool_calls`: the first fragment carries id and name, later ones arguments. */
export const openAIToolCallDelta = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** Token usage, sent in the last chunk when `stream_options.include_usage` is on (or never). */
export const openAIUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().nullish(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative().nullish() }).nullish(),
});

/** One `data:` chunk of a streamed Chat Completion. Unknown fields are ignored. */
export const openAIChunk = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().int().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z.array(openAIToolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: openAIUsage.nullish(),
});

/** A validated chunk. */
export type OpenAIChunk = z.infer<typeof openAIChunk>;
/** A validated tool-call fragment. */
export type OpenAIToolCallDelta = z.infer<typeof openAIToolCallDelta>;
/** Validated usage. */
export type OpenAIUsage = z.infer<typeof openAIUsage>;

/** A part of a Chat Completions user message: text, an image (a data URL or its URL), or a PDF. */
export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

/** A message as the Chat Completions API takes it. */
export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool as the Chat Completions API takes it. */
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
