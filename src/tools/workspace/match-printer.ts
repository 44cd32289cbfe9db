import type { ReadLine } from './read-lines.js';

/** Characters of a line shown at most; the rest is replaced by a marker. */
export const MAX_SHOWN_LINE_CHARS = 500;

function shown(line: ReadLine): string {
  const over = Math.max(0, line.text.length - MAX_SHOWN_LINE_CHARS);
  const cut = over + line.cut;
  const text = over > 0 ? line.text.slice(0, MAX_SHOWN_LINE_CHARS) : line.text;
  return cut > 0 ? `${text} [truncated ${cut.toLocaleString('en-US')} characters]` : text;
}

/**
 * Prints the matching lines of one search as grep and ripgrep do: `path:12:text` for a match,
 * `path-11-text` for a context line, `--` between groups that are not adjacent.
 */
export class MatchPrinter {
  /** The printed lines so far. */
  readonly lines: string[] = [];
  /** Characters printed so far (line breaks included). */
  chars = 0;
  private before: Array<{ no: number; line: ReadLine }> = [];
  private after = 0;
  private lastPrinted = 0;
  private printedAny = false;
  private file = '';

  constructor(private readonly context: number) {}

  /** Starts the next file; `path` is how the model sees it. */
  startFile(path: string): void {
    this.file = path;
    this.before = [];
    this.after = 0;
    this.lastPrinted = 0;
  }

  /** Whether context lines after a match are still due. */
  get owesContext(): boolean {
    return this.after > 0;
  }

  /** Takes line `no` of the current file; `matched` says whether the pattern matched it. */
  take(no: number, line: ReadLine, matched: boolean): void {
    if (matched) {
      const first = this.before[0]?.no ?? no;
      if (this.context > 0 && this.printedAny && (this.lastPrinted === 0 || first > this.lastPrinted + 1)) {
        this.print('--');
      }
      for (const held of this.before) this.print(`${this.file}-${held.no}-${shown(held.line)}`);
      this.before = [];
      this.print(`${this.file}:${no}:${shown(line)}`);
      this.lastPrinted = no;
      this.after = this.context;
      return;
    }
    if (this.after > 0) {
      this.after--;
      this.print(`${this.file}-${no}-${shown(line)}`);
      this.lastPrinted = no;
      return;
    }
    if (this.context === 0) return;
    this.before.push({ no, line });
    if (this.before.length > this.context) this.before.shift();
  }

  private print(text: string): void {
    this.lines.push(text);
    this.chars += text.length + 1;
    this.printedAny = true;
  }
}
