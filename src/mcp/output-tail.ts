import { printable } from '../core/printable.js';

// An ANSI escape sequence (colours, cursor moves, titles): a server's text must not drive the
// terminal it is printed on.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/**
 * Server text for a terminal: escape sequences removed, then every other control or format
 * character (C0/C1, bidi controls, zero-width characters) shown as a {@link printable} marker
 * such as `⟨U+202E⟩`. Tabs and newlines are kept.
 */
export function withoutControls(text: string): string {
  return printable(text.replace(ESCAPES, ''));
}

/** Keeps the end of a stream of text (a server's stderr), for error messages. */
export class OutputTail {
  private text = '';

  constructor(private readonly maxChars = 4000) {}

  /** Adds a chunk, dropping the oldest text past the limit. */
  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.maxChars);
  }

  /** The last `lines` non-empty lines, cleaned for a terminal, joined with ` | `; '' when none. */
  lastLines(lines = 5): string {
    return withoutControls(this.text)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .slice(-lines)
      .join(' | ');
  }
}
