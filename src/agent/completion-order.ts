/** Announces a call's outcome; returns a promise when the announcement must be waited for. */
export type Announcement = () => Promise<void> | undefined;

/**
 * Puts the outcomes of one turn's tool calls in the order the model asked for them, whatever
 * order concurrent calls finish in: a call's `tool_call_complete` (and its report to the
 * machine) waits until every call before it was announced. So a run's events do not depend on
 * timing, and they match the order of the `tool` messages.
 */
export class CompletionOrder {
  private next = 0;
  private readonly held = new Map<number, Announcement>();

  /**
   * Call `index` of a turn started. The schedule starts a turn's calls in order, and a turn only
   * starts once every call of the one before was announced, so call 0 starting begins a turn.
   */
  started(index: number): void {
    if (index !== 0) return;
    this.next = 0;
    this.held.clear();
  }

  /** Announces call `index` of the turn now if it is due, or once the calls before it are. */
  complete(index: number, announce: Announcement): void {
    if (index === this.next) this.announce(announce);
    else this.held.set(index, announce);
  }

  private announce(announce: Announcement): void {
    const pending = announce();
    if (pending === undefined) this.advance();
    else void pending.then(() => this.advance());
  }

  private advance(): void {
    this.next++;
    const due = this.held.get(this.next);
    if (due === undefined) return;
    this.held.delete(this.next);
    this.announce(due);
  }
}
