/**
 * An abort that makes its `AbortController` only when someone asks for the signal. Each tool call
 * and each model request has its own abort; most never read the signal (a synchronous tool, a
 * scripted model) and are never aborted, and an `AbortController` with its signal, plus the
 * `abort` event dispatched when its call's actor stops, are work most calls would do for nothing
 * (bench/alloc.ts, docs/performance-history.md).
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #watchers: (() => void)[] | undefined;

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

  /** Aborts once; later calls change nothing. The signal's listeners run first, then the watchers. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const watchers = this.#watchers;
    this.#watchers = undefined;
    if (watchers !== undefined) for (const watcher of watchers) watcher();
  }

  /**
   * Calls `onAbort` once when this aborts, without making the signal (a guard that waits for an
   * asynchronous tool needs no `AbortController` of its own); returns the function that stops
   * watching. Watching an abort that already happened does nothing: check {@link LazyAbort.aborted}.
   */
  watch(onAbort: () => void): () => void {
    if (this.#aborted) return () => {};
    if (this.#watchers === undefined) this.#watchers = [onAbort];
    else this.#watchers.push(onAbort);
    return () => {
      const index = this.#watchers?.indexOf(onAbort) ?? -1;
      if (index >= 0) this.#watchers?.splice(index, 1);
    };
  }
}

/** Where an object made by {@link withLazySignal} keeps its abort (a hidden, non-enumerable key). */
const ABORT = Symbol('abort');

/** The one `signal` getter of every object made by {@link withLazySignal}. */
function lazySignal(this: { readonly [ABORT]?: LazyAbort }): AbortSignal {
  const abort = this[ABORT];
  if (abort === undefined) {
    throw new TypeError("this 'signal' getter was copied without its object: copy the value (a spread does)");
  }
  return abort.signal;
}

const SIGNAL: PropertyDescriptor = { get: lazySignal, enumerable: true, configurable: true };
/** Reused for each object (its `value` set just before and cleared just after): no descriptor per call. */
const HIDDEN: PropertyDescriptor = { value: undefined, enumerable: false, configurable: true, writable: false };

/**
 * `target` with an own, enumerable, configurable `signal` getter that makes `abort`'s signal on
 * first read, as an object literal's `get signal()` would (a spread copies the signal; equality
 * checks, `util.inspect` and JSON see `signal` only). One getter is shared by all such objects:
 * an object literal's getter is a new function per object, which V8 keeps as a dictionary
 * object (docs/performance-history.md, session 10).
 */
export function withLazySignal<T extends object>(target: T, abort: LazyAbort): T & { readonly signal: AbortSignal } {
  HIDDEN.value = abort;
  Object.defineProperty(target, ABORT, HIDDEN);
  HIDDEN.value = undefined;
  return Object.defineProperty(target, 'signal', SIGNAL) as T & { readonly signal: AbortSignal };
}
