type Waiter<T> = (result: IteratorResult<T, void>) => void;

/**
 * An unbounded queue drained by `take()`. Takes made before items arrive wait in order, as
 * calls of an async generator's `next()` do.
 *
 * From the first `take()` on, the queue paces its producer as a generator paces its body: the
 * promise `push` returns resolves once the reader has taken that item and asks for the next one
 * (a generator resumes after `yield` only on the next `next()`). Items pushed before anyone
 * reads are buffered without waiting, so a run nobody reads still finishes.
 */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private readonly waiters: Waiter<T>[] = [];
  private closed = false;
  /** A reader has asked for an item, and has not stopped reading. */
  private paced = false;
  private stopped = false;
  /** Resolves the pusher of the last item once the reader is done with it. */
  private release: (() => void) | undefined;
  /** The item `release` belongs to was handed out: the next take releases it. */
  private handedOut = false;
  /** Resolves {@link AsyncQueue.caughtUp}'s promise once the reader asks with nothing queued. */
  private resolveCaughtUp: (() => void) | undefined;
  private caughtUpPromise: Promise<void> | undefined;

  /**
   * Adds an item, handing it straight to the longest-waiting take if there is one. Returns a
   * promise that resolves when the reader is done with the item, or `undefined` when there is
   * nothing to wait for (`hold` is false, nobody reads yet, the reader stopped, or it already
   * asked for more).
   */
  push(item: T, hold = true): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.releaseHeld(); // a producer that did not wait: stop holding the item before
    const waiter = this.waiters.shift();
    if (waiter !== undefined) waiter({ value: item, done: false });
    else this.items.push(item);
    if (!hold || !this.paced || this.waiters.length > 0) return undefined;
    this.handedOut = waiter !== undefined;
    return new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  /**
   * Resolves once the reader has taken every item pushed so far and asks for the next (or stops
   * reading); `undefined` when it already has, or nobody reads. For a producer that pushed items
   * unheld and must not go on past them until the reader has them all.
   */
  caughtUp(): Promise<void> | undefined {
    if (!this.paced || this.waiters.length > 0) return undefined;
    this.caughtUpPromise ??= new Promise<void>((resolve) => {
      this.resolveCaughtUp = resolve;
    });
    return this.caughtUpPromise;
  }

  /** Ends the iteration once the queued items are consumed; waiting takes get the end. */
  close(): void {
    this.closed = true;
    this.stopPacing();
    for (const waiter of this.waiters.splice(0)) waiter({ value: undefined, done: true });
  }

  /** The reader is gone: release the producer and never hold it again. */
  stopPacing(): void {
    this.stopped = true;
    this.paced = false;
    this.releaseHeld();
    this.markCaughtUp();
  }

  /** The next item, or the end once the queue is closed and drained. */
  take(): Promise<IteratorResult<T, void>> {
    if (!this.stopped) this.paced = true;
    if (this.handedOut) this.releaseHeld();
    if (this.head < this.items.length) {
      const value = this.items[this.head++] as T;
      if (this.head === this.items.length) {
        this.items.length = 0;
        this.head = 0;
        // The held item is always the last one pushed: it has now been handed out.
        if (this.release !== undefined) this.handedOut = true;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    this.markCaughtUp();
    return new Promise<IteratorResult<T, void>>((resolve) => {
      this.waiters.push(resolve);
    });
  }

  private markCaughtUp(): void {
    const resolve = this.resolveCaughtUp;
    if (resolve === undefined) return;
    this.resolveCaughtUp = undefined;
    this.caughtUpPromise = undefined;
    resolve();
  }

  private releaseHeld(): void {
    const release = this.release;
    if (release === undefined) return;
    this.release = undefined;
    this.handedOut = false;
    release();
  }
}
