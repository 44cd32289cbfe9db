import type { ContentPart, MessageContent } from './content-parts.js';
import { contentText } from './content-parts.js';
import type { ToolException } from './tool-exception.js';

/** The outcome of one tool call: plain JSON. */
export interface ToolResult {
  /** Whether the call did what it was asked. */
  readonly success: boolean;
  /** The observation, on success (with {@link ToolResult.content}, the text of its parts). */
  readonly output?: string;
  /** The observation as parts (text, images, files; SPEC §15), when the tool returned parts. */
  readonly content?: readonly ContentPart[];
  /** What went wrong, on failure (the tool message then reads `Error: <error>`). */
  readonly error?: string;
  /**
   * What the tool threw, when the error is `Internal error: …`: for its developer, never shown to
   * the model or journaled. Not enumerable, so the result serialises and compares as without it.
   */
  readonly exception?: ToolException;
}

/** Factories for {@link ToolResult}. */
export const ToolResult = {
  /** A successful call with its output. */
  success(output: string): ToolResult {
    return { success: true, output };
  },
  /**
   * A successful call whose observation is parts, such as a screenshot with a caption. The parts
   * are validated when the result reaches the loop (`invalid_content` becomes the call's error).
   */
  content(parts: readonly ContentPart[]): ToolResult {
    return { success: true, output: partsText(parts), content: parts };
  },
  /** A failed call; `message` says what went wrong and is shown to the model. */
  error(message: string): ToolResult {
    return { success: false, error: message };
  },
  /** The seed's name for {@link ToolResult.success}. */
  successResult(output: string): ToolResult {
    return { success: true, output };
  },
  /** The seed's name for {@link ToolResult.error}. */
  errorResult(message: string): ToolResult {
    return { success: false, error: message };
  },
} as const;

/**
 * The text of parts not yet validated: a tool may hand `ToolResult.content` a malformed part
 * (null, a number as `data`), which the registry reports as `invalid_content`; building the
 * result must not throw first. The registry rebuilds the output from the validated parts.
 */
function partsText(parts: readonly ContentPart[]): string {
  try {
    return contentText(parts);
  } catch {
    return '';
  }
}

/** The `tool` message content for a result: its parts or output, or `Error: …`. */
export function toolMessageContent(result: ToolResult): MessageContent {
  if (!result.success) return `Error: ${result.error ?? 'unknown error'}`;
  return result.content ?? result.output ?? '';
}

/**
 * The error of a call in doubt that is not run again (SPEC §8): it started, its run stopped
 * before its result was recorded, and its tool is not idempotent.
 */
export const IN_DOUBT_ERROR =
  'interrupted: the run stopped while this call was running, so it may or may not have taken effect; it was not run again';

/** The error text of a call aborted before its tool started. */
export function abortedBeforeStart(name: string, reason: string): string {
  return `Tool '${name}' was aborted before it started: ${reason}`;
}
