type Waiter<T> = (result: IteratorResult<T, void>) => void;

/**
 * An unbounded queue drained by `take()`. Takes made before items arrive wait in order, as
 * calls of an async generator's `next()` do.
 */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private readonly waiters: Waiter<T>[] = [];
  private closed = false;

  /** Adds an item, handing it straight to the longest-waiting take if there is one. */
  push(item: T): void {
    if (this.closed) return;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) waiter({ value: item, done: false });
    else this.items.push(item);
  }

  /** Ends the iteration once the queued items are consumed; waiting takes get the end. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter({ value: undefined, done: true });
  }

  /** The next item, or the end once the queue is closed and drained. */
  take(): Promise<IteratorResult<T, void>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++] as T;
      if (this.head === this.items.length) {
        this.items.length = 0;
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiters.push(resolve);
    });
  }
}
