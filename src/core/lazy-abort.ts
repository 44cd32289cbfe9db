/**
 * An abort that makes its `AbortController` only when someone asks for the signal. Each tool call
 * and each model request has its own abort; most never read the signal (a synchronous tool, a
 * scripted model) and are never aborted, and an `AbortController` with its signal, plus the
 * `abort` event dispatched when its call's actor stops, cost more than the rest of a tool step
 * outside XState (docs/performance.md).
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** Whether {@link LazyAbort.abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** What {@link LazyAbort.abort} was called with. */
  get reason(): unknown {
    return this.#reason;
  }

  /** The signal, made on first use (already aborted, with the reason, if the abort came first). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once; later calls change nothing. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
