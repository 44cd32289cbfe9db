import { Worker } from 'node:worker_threads';

// Runs in the worker: tests each line of a batch against the expression. A pattern such as
// `(a+)+$` can backtrack for longer than any budget, and a regex cannot be interrupted on the
// thread that runs it; here it runs on a thread that the search ends with `terminate()`.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (lines) => {
  const matched = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) matched[i] = regex.test(lines[i]);
  parentPort.postMessage(matched);
});
`;

/** Why a batch was not matched: the search's time ran out, or its signal aborted. */
export type RegexStop = 'time' | 'aborted';

/**
 * A regular expression tested on a worker thread, so that a search whose pattern backtracks
 * catastrophically still stops at its deadline or its abort: the worker is terminated, and
 * this thread never ran the match. Started on the first batch; {@link RegexWorker.close} ends it.
 */
export class RegexWorker {
  private worker: Worker | undefined;
  private stopped: RegexStop | undefined;

  constructor(private readonly regex: RegExp) {}

  /**
   * Whether each line matches, or why it was not found out: the deadline (a `Date.now()` time)
   * passed or the signal aborted first. After a stop, every later batch gives the same stop.
   */
  async match(lines: readonly string[], deadline: number, signal: AbortSignal): Promise<boolean[] | RegexStop> {
    if (this.stopped !== undefined) return this.stopped;
    if (signal.aborted) return this.stop('aborted');
    const worker = this.start();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<boolean[] | RegexStop>((resolve, reject) => {
        const settle = (outcome: boolean[] | RegexStop | Error): void => {
          worker.off('message', settle);
          worker.off('error', settle);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        };
        worker.on('message', settle);
        worker.on('error', settle);
        timer = setTimeout(() => settle(this.stop('time')), Math.max(0, deadline - Date.now()));
        onAbort = () => settle(this.stop('aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
        worker.postMessage(lines);
      });
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the worker, if one was started. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.regex.source, flags: this.regex.flags },
    });
    // The search's own work keeps the process alive; an idle worker must not.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(why: RegexStop): RegexStop {
    this.stopped = why;
    void this.close();
    return why;
  }
}
