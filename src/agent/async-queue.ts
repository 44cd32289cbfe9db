/** An unbounded single-consumer queue, drained one `take()` at a time. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiter: ((result: IteratorResult<T, void>) => void) | undefined;
  private closed = false;

  /** Adds an item, handing it straight to a waiting consumer if there is one. */
  push(item: T): void {
    if (this.closed) return;
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  /** Ends the iteration once the queued items are consumed. */
  close(): void {
    this.closed = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.({ value: undefined, done: true });
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
      this.waiter = resolve;
    });
  }
}
