/**
 * Aborts a controller when nothing arrived for `ms` milliseconds: a stalled stream otherwise
 * hangs forever, since the SDKs' time-outs stop at the response headers.
 */
export class IdleWatchdog {
  /** Set once the watchdog fired. */
  fired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number | undefined,
    private readonly controller: AbortController,
  ) {
    this.kick();
  }

  /** Something arrived: start the wait again. */
  kick(): void {
    if (this.ms === undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error(`no data for ${this.ms} ms`));
    }, this.ms);
    this.timer.unref?.();
  }

  /** Not waiting for data (between attempts, or done). */
  stop(): void {
    clearTimeout(this.timer);
  }
}
