import { checkContent } from '../core/content-check.js';
import { contentText, hasAttachments, type MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';

/**
 * The task of `run()`, checked: a non-empty string, or content parts (SPEC §15) with some text
 * or an attachment, each image or file at most `maxBytes` (`invalid_content` names the part).
 */
export function checkRunInput(input: unknown, maxBytes: number): MessageContent {
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw new HarnessError(
      'invalid_argument',
      `run() input must be a string or content parts, got ${input === null ? 'null' : typeof input}`,
    );
  }
  const content = checkContent(input, 'run() input', maxBytes);
  if (!hasAttachments(content) && contentText(content).trim() === '') {
    throw new HarnessError('invalid_argument', 'run() input is empty: give the task as a non-empty string');
  }
  return content;
}
