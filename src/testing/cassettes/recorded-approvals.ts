import type { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../core/agent-event.js';
import { errorMessage } from '../../core/errors.js';
import type { ApprovalDecisionEntry, JournalEntry } from '../../core/journal-entry.js';
import { CallKeys } from './call-keys.js';
import type { RecordedRun } from './recorded-runs.js';
import { type StepMatcher, stepAt } from './step-matcher.js';

interface RecordedDecision {
  readonly entry: ApprovalDecisionEntry;
  /** The recorded run (index) that decided it. */
  readonly run: number;
}

/**
 * Answers a replay's approval requests as the recording decided them, in the run that decided
 * them, an edit of the arguments included; a call it never decided is denied (a divergence).
 * A recorded run that ended `suspended` is suspended again once its own decisions are given.
 * Decisions are matched by {@link CallKeys} key, so an id the model reused gets each turn's.
 */
export class RecordedApprovals {
  private readonly decisions = new Map<string, RecordedDecision>();
  private readonly keys = new CallKeys();
  private current = 0;
  private suspendWanted = false;
  private readonly subscriptions: { unsubscribe(): void }[] = [];

  constructor(
    journal: readonly JournalEntry[],
    private readonly runs: readonly RecordedRun[],
    private readonly matcher: StepMatcher,
    private readonly agent: Agent,
  ) {
    const keys = new CallKeys();
    runs.forEach((run, index) => {
      for (let at = run.start; at < run.end; at++) {
        const entry = journal[at] as JournalEntry;
        if (entry.type !== 'approval_decision' || entry.rule !== undefined) continue;
        this.decisions.set(keys.at(journal, at, entry.callId), { entry, run: index });
      }
    });
  }

  /** Starts answering the agent's requests. */
  install(): void {
    this.subscriptions.push(this.agent.events.subscribe((event: AgentEvent) => this.onRequest(event)));
    this.subscriptions.push(
      this.agent.stream$.subscribe(({ entry }) => {
        if (entry.type === 'transition' && entry.to === 'awaitingApproval') queueMicrotask(() => this.trySuspend());
      }),
    );
  }

  /** The replay now drives recorded run `index`. */
  begin(index: number): void {
    this.current = index;
    this.suspendWanted = false;
  }

  /** Stops answering. */
  close(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  /** The recorded decision on call `callId` of the new run, if the current recorded run made it. */
  private decisionNow(callId: string): RecordedDecision | undefined {
    const found = this.decisions.get(this.keys.of(this.agent.session.journal, callId));
    return found?.run === this.current ? found : undefined;
  }

  private onRequest(event: AgentEvent): void {
    if (event.type !== 'tool_approval_request') return;
    const { callId, path } = event.data as { callId: string; path?: readonly string[] };
    const journal = this.agent.session.journal;
    const found = this.decisions.get(this.keys.of(journal, callId));
    // A sub-agent's call (relayed, with its path) comes while the parent runs a tool: the parent
    // cannot be suspended on it, so it is decided now.
    if (found?.run !== this.current && this.runs[this.current]?.suspended === true && path === undefined) {
      // The recorded run was suspended with this call undecided: suspend once the others are.
      this.suspendWanted = true;
      queueMicrotask(() => this.trySuspend());
      return;
    }
    if (found === undefined) {
      const step = stepAt(journal, journal.length - 1);
      this.matcher.add(
        step,
        'tool call',
        undefined,
        event.data,
        `call ${callId} asked for approval; the recording never did`,
      );
    }
    queueMicrotask(() => {
      const decision = found?.entry;
      if (decision?.approved === true) this.approve(callId, decision);
      else this.agent.deny(callId, decision?.reason ?? 'not approved in the recording');
      this.trySuspend();
    });
  }

  /**
   * Approves as recorded. An edit of the arguments the tool now refuses (`invalid_argument`)
   * would leave the call waiting: it is denied, naming why, and the journal comparison reports
   * the decision that differs.
   */
  private approve(callId: string, decision: ApprovalDecisionEntry): void {
    try {
      this.agent.approve(callId, decision.arguments === undefined ? {} : { arguments: decision.arguments });
    } catch (error) {
      this.agent.deny(callId, `the recorded edit of the arguments does not fit the tool now: ${errorMessage(error)}`);
    }
  }

  /**
   * Suspends the run, as the recording did, once it waits only for calls this recorded run did
   * not decide (a call it decided is answered first); never leaves the run waiting.
   */
  private trySuspend(): void {
    if (!this.suspendWanted) return;
    if (this.agent.pendingApprovals().some((call) => this.decisionNow(call.callId) !== undefined)) return;
    if (this.agent.suspend()) this.suspendWanted = false;
  }
}
