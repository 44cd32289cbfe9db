/** Announces a call's outcome; returns a promise when the announcement must be waited for. */
export type Announcement = () => Promise<void> | undefined;

/** The announcements of one turn: call `next` is due; later calls that finished wait in `held`. */
class TurnOrder {
  private next = 0;
  /** Made when a call first has to wait (most turns never need it). */
  private held: Map<number, Announcement> | undefined;

  complete(index: number, announce: Announcement): void {
    if (index === this.next) {
      this.release(announce);
      return;
    }
    this.held ??= new Map();
    this.held.set(index, announce);
  }

  /** Announces `first` and every held call that becomes due after it: a loop, not recursion. */
  private release(first: Announcement): void {
    for (let announce: Announcement | undefined = first; announce !== undefined; announce = this.takeDue()) {
      const pending = announce();
      if (pending !== undefined) {
        void pending.then(() => {
          this.next++;
          const due = this.takeDue();
          if (due !== undefined) this.release(due);
        });
        return;
      }
      this.next++;
    }
  }

  private takeDue(): Announcement | undefined {
    const due = this.held?.get(this.next);
    if (due !== undefined) this.held?.delete(this.next);
    return due;
  }
}

/**
 * Puts the outcomes of each turn's tool calls in the order the model asked for them, whatever
 * order concurrent calls finish in: a call's `tool_call_complete` (and its report to the
 * machine) waits until every call before it in its turn was announced. So a run's events do
 * not depend on timing, and they match the order of the `tool` messages.
 */
export class CompletionOrder {
  private turn = new TurnOrder();

  /**
   * Call `index` of a turn started. The schedule starts a turn's calls in order, so call 0
   * starting begins a turn; each turn keeps its own position, so nothing of the turn before
   * (not even its last announcement finishing) can hold up this one.
   */
  started(index: number): void {
    if (index === 0) this.turn = new TurnOrder();
  }

  /** Announces call `index` of the current turn now if it is due, or once the calls before it are. */
  complete(index: number, announce: Announcement): void {
    this.turn.complete(index, announce);
  }
}
