import type { Output } from './render-human.js';

/** Starts a repeating callback and returns its stop function; injectable so tests need no timers. */
export type Ticker = (tick: () => void, everyMs: number) => () => void;

/** The real {@link Ticker}, on `setInterval` (unref'd: it never keeps the process alive). */
export const intervalTicker: Ticker = (tick, everyMs) => {
  const timer = setInterval(tick, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
};

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\u001b[2K';

/**
 * A one-line status at the bottom of a terminal while tool calls run: a spinner frame and the
 * first running call (`+N more` when several run at once). Other output clears it first and
 * redraws it after, so finished lines are never overwritten. For TTYs only.
 */
export class ToolSpinner {
  private readonly running = new Map<string, string>();
  private frame = 0;
  private drawn = false;
  private stopTicking: (() => void) | undefined;

  constructor(
    private readonly out: Output,
    private readonly ticker: Ticker = intervalTicker,
  ) {}

  /** A call started: show it. */
  start(callId: string, label: string): void {
    this.running.set(callId, label);
    this.stopTicking ??= this.ticker(() => this.tick(), 80);
    this.draw();
  }

  /** A call settled: stop showing it (and stop ticking when none is left). */
  finish(callId: string): void {
    this.running.delete(callId);
    if (this.running.size === 0) this.halt();
  }

  /** Erases the status line, if drawn, before other output. */
  clear(): void {
    if (!this.drawn) return;
    this.out.write(CLEAR_LINE);
    this.drawn = false;
  }

  /** Draws the status line again after other output, if calls are still running. */
  draw(): void {
    const [first] = this.running.values();
    if (first === undefined) return;
    const more = this.running.size > 1 ? ` (+${this.running.size - 1} more)` : '';
    this.out.write(`${CLEAR_LINE}${FRAMES[this.frame % FRAMES.length]} ${first}${more}`);
    this.drawn = true;
  }

  /** Stops everything and erases the line (at the end of a run). */
  stop(): void {
    this.running.clear();
    this.halt();
    this.clear();
  }

  private halt(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }

  private tick(): void {
    this.frame++;
    this.draw();
  }
}
