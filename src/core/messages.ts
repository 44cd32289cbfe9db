import type { MessageContent } from './content-parts.js';

/** A JSON value as it appears in tool arguments and journals. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** One tool call the model asked for. */
export interface ToolCall {
  /** Provider-assigned id that the tool result must echo. */
  readonly callId: string;
  /** Name of the tool to run. */
  readonly name: string;
  /**
   * Parsed arguments, or the raw text when the model sent something that is not JSON
   * (the registry then answers `Invalid parameters`).
   */
  readonly arguments: JsonObject | string;
}

/** The observation that answers one {@link ToolCall}. */
export interface ToolResultMessage {
  /** The `callId` of the call this answers. */
  readonly callId: string;
  /** The tool's output (a string, or parts with images or files), or `Error: …` for a failed call. */
  readonly content: MessageContent;
}

/** Instructions for the model, set from `Config.systemPrompt`. */
export interface SystemMessage {
  /** Always `'system'`. */
  readonly role: 'system';
  /** The text. */
  readonly content: string;
}

/** A message from the user (or, with `author: 'harness'`, written by the harness itself). */
export interface UserMessage {
  /** Always `'user'`. */
  readonly role: 'user';
  /** The text, or parts (text, images, files; SPEC §15). */
  readonly content: MessageContent;
  /** Present only on messages the harness wrote, such as a budget warning. */
  readonly author?: 'harness';
}

/**
 * The model's reasoning in one turn, as its provider returned it (SPEC §15). Journaled with its
 * message and sent back unchanged, only to `provider`, and never apart from the message's tool
 * calls. What a provider needs back is opaque to the loop: `signature` (Anthropic thinking),
 * `encrypted` (OpenAI `reasoning.encrypted_content`).
 */
export interface ReasoningPart {
  /** Always `'reasoning'`. */
  readonly type: 'reasoning';
  /** The provider that made it (`openai`, `anthropic`, …): the only one it is sent back to. */
  readonly provider: string;
  /**
   * The reasoning text, when the provider shows it (Anthropic `thinking`, OpenAI `reasoning_text`):
   * the parts of a text given in several, joined by a blank line.
   */
  readonly text?: string;
  /**
   * The text as the provider split it, when it gave two parts or more (`text` is their join):
   * sent back part by part, as received.
   */
  readonly textParts?: readonly string[];
  /**
   * A summary of the reasoning, when the provider gives one (OpenAI reasoning summaries): the
   * parts of a summary given in several, joined by a blank line.
   */
  readonly summary?: string;
  /**
   * The summary as the provider split it, when it gave two parts or more (`summary` is their
   * join): sent back part by part, as received.
   */
  readonly summaryParts?: readonly string[];
  /** Anthropic's signature of the thinking block. */
  readonly signature?: string;
  /** OpenAI's encrypted reasoning content (`include: ['reasoning.encrypted_content']`). */
  readonly encrypted?: string;
  /** The provider's id of the item (OpenAI `rs_…`). */
  readonly id?: string;
}

/** Reasoning the provider hid (Anthropic `redacted_thinking`): sent back as it came, to it only. */
export interface RedactedReasoningPart {
  /** Always `'redacted_reasoning'`. */
  readonly type: 'redacted_reasoning';
  /** The provider that made it. */
  readonly provider: string;
  /** The opaque data. */
  readonly data: string;
}

/** One part of a turn's reasoning. */
export type ReasoningContent = ReasoningPart | RedactedReasoningPart;

/** A model turn: its text and the tool calls it asked for. */
export interface AssistantMessage {
  /** Always `'assistant'`. */
  readonly role: 'assistant';
  /** The text. */
  readonly content: string;
  /** Present, and non-empty, only when the turn asked for tools. */
  readonly toolCalls?: readonly ToolCall[];
  /** The turn's reasoning, in the order the provider returned it; present only when there was some. */
  readonly reasoning?: readonly ReasoningContent[];
}

/** A tool observation. Tool output only ever appears in this role, verbatim. */
export interface ToolMessage {
  /** Always `'tool'`. */
  readonly role: 'tool';
  /** The call this observation answers. */
  readonly callId: string;
  /** The tool's output: a string, or parts (text, images, files; SPEC §15). */
  readonly content: MessageContent;
}

/** A message of the model's context, OpenAI-shaped (role + content). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
