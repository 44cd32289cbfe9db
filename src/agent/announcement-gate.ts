/** Announces one tool call; calls `delivered` once the announcement has reached everyone. */
export type ToolAnnouncement = (delivered: () => void) => void;

/**
 * Lets a run's tool announcements out one at a time, each once the reader of `run()` is ready
 * for another event. A tool starts as its `tool_call_start` reaches the reader, so announcing a
 * whole batch of concurrent calls at once would start tools the reader has not been shown yet
 * (and a `break` at the first announcement could no longer keep the second from starting).
 */
export class AnnouncementGate {
  private readonly waiting: ToolAnnouncement[] = [];
  /** An announcement is on its way and has not reached everyone yet. */
  private inFlight = false;
  private pumping = false;

  /** @param readerReady whether the reader is ready for another event (or nothing paces the run). */
  constructor(private readonly readerReady: () => boolean) {}

  /** Queues an announcement; it goes out as soon as the reader is ready and the one before it is delivered. */
  enter(announce: ToolAnnouncement): void {
    this.waiting.push(announce);
    this.pump();
  }

  /** Lets out what can go now: call it when the reader asks for an event or stops reading. */
  pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.inFlight && this.waiting.length > 0 && this.readerReady()) {
        const announce = this.waiting.shift() as ToolAnnouncement;
        this.inFlight = true;
        announce(() => {
          this.inFlight = false;
          this.pump(); // returns at once when called from inside this loop, which goes on
        });
      }
    } finally {
      this.pumping = false;
    }
  }
}
