import { z } from 'zod';

const count = z.number().int().nonnegative();

/** Usage as the Responses API reports it, in the final response object. */
export const responsesUsage = z.object({
  input_tokens: count,
  input_tokens_details: z.object({ cached_tokens: count.nullish() }).nullish(),
  output_tokens: count,
  output_tokens_details: z.object({ reasoning_tokens: count.nullish() }).nullish(),
  total_tokens: count.nullish(),
});

const textPart = z.object({ type: z.string(), text: z.string() });

/** An output item, as `response.output_item.added` and `.done` carry it; only what we read. */
export const responsesOutputItem = z.object({
  type: z.string(),
  id: z.string().nullish(),
  /** `function_call`: the id its `function_call_output` must echo. */
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  /** `reasoning`: the summary parts, the reasoning text parts, and the opaque content to send back. */
  summary: z.array(textPart).nullish(),
  content: z.array(z.object({ type: z.string(), text: z.string().nullish() })).nullish(),
  encrypted_content: z.string().nullish(),
});

/** The response object of the final events, as far as we read it. */
const responseBody = z.object({
  usage: responsesUsage.nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string() }).nullish(),
});

const delta = <T extends string>(type: T) =>
  z.object({
    type: z.literal(type),
    output_index: z.number().int().nullish(),
    item_id: z.string().nullish(),
    delta: z.string(),
  });

/** The stream events we act on. Others pass unvalidated (the API adds event types over time). */
export const responsesStreamEvent = z.discriminatedUnion('type', [
  delta('response.output_text.delta'),
  delta('response.refusal.delta'),
  delta('response.reasoning_summary_text.delta'),
  // Which part of the item's reasoning text the delta belongs to (an item may give several).
  delta('response.reasoning_text.delta').extend({ content_index: z.number().int().nullish() }),
  delta('response.function_call_arguments.delta'),
  z.object({
    type: z.literal('response.output_item.added'),
    output_index: z.number().int(),
    item: responsesOutputItem,
  }),
  z.object({
    type: z.literal('response.output_item.done'),
    output_index: z.number().int(),
    item: responsesOutputItem,
  }),
  z.object({ type: z.literal('response.reasoning_summary_part.added'), summary_index: z.number().int().nullish() }),
  z.object({ type: z.literal('response.completed'), response: responseBody }),
  z.object({ type: z.literal('response.incomplete'), response: responseBody }),
  z.object({ type: z.literal('response.failed'), response: responseBody }),
  z.object({ type: z.literal('error'), code: z.string().nullish(), message: z.string().nullish() }),
]);

/** A validated stream event. */
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEvent>;
/** A validated output item. */
export type ResponsesOutputItem = z.infer<typeof responsesOutputItem>;
/** Validated usage. */
export type ResponsesUsage = z.infer<typeof responsesUsage>;

/** A reasoning item as we send it back (with `store: false`, its encrypted content carries it). */
export interface ResponsesReasoningInput {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string;
  content?: { type: 'reasoning_text'; text: string }[];
}

/**
 * A part of a user message or of a `function_call_output`: text, an image (a data URL or its
 * URL), or a file (a data URL, or its URL).
 */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string }
  | { type: 'input_file'; file_url: string; filename?: string };

/** An item of the `input` list we send. */
export type ResponsesInputItem =
  | { role: 'user'; content: string | ResponsesInputContent[] }
  | { role: 'assistant'; content: string }
  | ResponsesReasoningInput
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesInputContent[] };

/** A tool as the Responses API takes it. */
export interface ResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** How hard a reasoning model thinks (`reasoning.effort`; which values a model takes varies). */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** Whether, and how fully, a reasoning model summarises its reasoning (`reasoning.summary`). */
export type OpenAIReasoningSummary = 'auto' | 'concise' | 'detailed';
