// An ANSI escape sequence (colours, cursor moves, titles), then any other control character
// except tab and newline: a server's stderr must not drive the terminal it is printed on.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text with escape sequences and control characters (other than tab and newline) removed. */
export function withoutControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROL, '');
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
