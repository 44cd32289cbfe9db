import { type Actor, type AnyActorLogic, createActor, type InspectionEvent, type Observer } from 'xstate';
import type { Config } from '../config/config.js';
import { estimateContextTokens, estimateToolTokens } from '../context/token-estimate.js';
import { AgentEvent, isTerminal } from '../core/agent-event.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { LazyAbort } from '../core/lazy-abort.js';
import type { ModelClient } from '../core/model-client.js';
import { IN_DOUBT_ERROR, ToolResult } from '../core/tool-result.js';
import type { EventBus } from '../events/event-bus.js';
import { MAIN_AGENT } from '../machines/agent-machine.js';
import type { PendingCalls } from '../machines/agent-machine-types.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { zodSchemaProblem } from '../tools/zod-schema.js';
import type { MachineClock, ResumeOptions } from './agent.js';
import { checkApprovals, gatePending } from './approval-controls.js';
import { AsyncQueue } from './async-queue.js';
import { invalidCallsSoFar } from './invalid-calls-so-far.js';
import { runOutput } from './output-check.js';
import { checkPolicyKeys } from './policy-keys.js';
import type { ProvidedAgentMachine } from './provide-machine.js';
import type { RelayedApprovals } from './relayed-approvals.js';
import { requestOptions } from './request-model.js';
import { bindAgentRun, type MachineDeps, type RunHandle, unbindAgentRun } from './run-handle.js';
import { TreeSpend } from './tree-spend.js';

/** A run in progress, with the queue its event stream reads from. */
export type ActiveRun = RunHandle & { readonly queue: AsyncQueue<AgentEvent>; closing: Promise<void> | undefined };

const INTERRUPTED = 'the run was interrupted before this call finished, and it was not resumed';

/** What a run that owes no tool calls hands the machine. */
const NOTHING_PENDING: PendingCalls = Object.freeze({ calls: Object.freeze([]), concurrencySafe: Object.freeze([]) });

/** Sessions with a run in progress, whichever agent runs it: two runs would interleave one journal. */
const runningSessions = new WeakSet<Session>();

/**
 * The machine's context-size inputs: only when the config limits the context (estimating costs
 * a pass over it). `tokenScale` is the provider's tokens per estimated token from the agent's
 * last run, so a follow-up run's first request is measured as that provider counts.
 */
function contextInput(
  config: Config,
  session: Session,
  tools: ToolRegistry,
  tokenScale: number,
): { contextLimit?: number; contextTokens?: number; tokenScale?: number } {
  const limit = config.context?.maxTokens;
  if (limit === undefined) return {};
  const estimate = estimateContextTokens(session.messages) + estimateToolTokens(tools.definitions());
  return { contextLimit: limit, contextTokens: Math.ceil(estimate * tokenScale), tokenScale };
}

/** What the run lifecycle needs of its agent (`Agent`): fixed at construction. */
export interface RunSetup {
  /** The agent's configuration. */
  readonly config: Config;
  /** The session the agent runs in. */
  readonly session: Session;
  /** The agent's event bus. */
  readonly events: EventBus;
  /** The provided agent machine every run starts. */
  readonly machine: ProvidedAgentMachine;
  /** How deeply the agent is nested under others. */
  readonly depth: number;
  /** The agent's model client (none: a run is refused with `no_client`). */
  readonly client: ModelClient | undefined;
  /** The agent's own tools. */
  readonly tools: ToolRegistry;
  /** The tools of the agent in charge now (after a handoff, those of the agent handed to). */
  readonly activeTools: () => ToolRegistry;
  /** What the machine's provided implementations need (bound to each run's actor). */
  readonly deps: MachineDeps;
  /** XState inspection observer. */
  readonly inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined;
  /** Clock for the machine's timers. */
  readonly clock: MachineClock | undefined;
  /** Monotonic milliseconds. */
  readonly now: () => number;
  /** The live spend of the parent's run, for a sub-agent. */
  readonly parentSpend: TreeSpend | undefined;
  /** Sub-agents' calls the agent's approver was asked about. */
  readonly relayed: RelayedApprovals;
  /** Emits the agent's own event on its bus; resolves once every subscriber has it. */
  readonly emitOwn: (event: AgentEvent) => Promise<void>;
  /** Emits the agent's own event on its bus, with no promise. */
  readonly postOwn: (event: AgentEvent) => void;
}

/**
 * The run lifecycle of an agent (`Agent`): starts a run (`begin`), ends it once (`close`), records a
 * failure of the loop itself, and hands the machine what an interrupted run still owes.
 */
export class AgentRuns {
  /** The run in progress, if any. */
  active: ActiveRun | undefined;
  /** Provider tokens per estimated token, as the last run measured it (context compaction). */
  private tokenScale = 1;

  constructor(private readonly setup: RunSetup) {}

  /** Ends the run in progress with reason `aborted`; tools in flight see their signal. */
  abort(reason = 'run aborted'): void {
    const run = this.active;
    if (run === undefined || run.finished) return; // nothing left to stop
    run.actor.send({ type: 'ABORT', reason: 'aborted', message: reason });
  }

  /** Starts a run on a new message (`input`) or, without one, resumes the session's last run. */
  begin(input: string | undefined, options: ResumeOptions): ActiveRun {
    if (this.active !== undefined)
      throw new HarnessError('already_running', 'this agent is already running; await the current run first');
    if (runningSessions.has(this.setup.session))
      throw new HarnessError('already_running', 'another agent is running in this session; await its run first');
    if (this.setup.client === undefined) throw new HarnessError('no_client', 'the agent has no model client');
    const storeFailure = this.setup.session.storeFailure;
    if (storeFailure !== undefined) throw storeFailure;
    // Once both the policy and the tools are known; a child agent may share its parent's
    // config, whose rules name the parent's tools.
    if (this.setup.depth === 0) checkPolicyKeys(this.setup.config.permissions, this.setup.tools);
    const queue = new AsyncQueue<AgentEvent>();
    // This run's events not yet delivered, oldest first: the bus delivers in the order events
    // were emitted, so an event is this run's when it is the oldest of them (a shared bus
    // carries other agents' events too). Dropped with the run.
    const own: AgentEvent[] = [];
    let oldest = 0;
    // The reader of run() is an ordinary awaited subscriber: it holds each event until it asks
    // for the next, as a generator's body would (the bus delivers one event at a time, and the
    // loop waits for it to be idle before it starts a tool or asks the model). Not the last
    // event: the run releases the agent at once.
    const unsubscribe = this.setup.events.subscribe((event) => {
      if (own[oldest] !== event) return; // another agent's run on a shared bus
      if (++oldest === own.length) {
        own.length = 0;
        oldest = 0;
      }
      const terminal = isTerminal(event);
      // Once the store has failed, the reader sees nothing more past its last durable entry but the end.
      if (!terminal && this.setup.session.storeFailure !== undefined) return;
      const read = queue.push(terminal ? this.durableEnd(event) : event, !terminal);
      if (!terminal) return read;
      void this.close(run); // also when nobody reads the events
    });
    const emit = (event: AgentEvent): Promise<void> => {
      own.push(event);
      return this.setup.emitOwn(event);
    };
    const post = (event: AgentEvent): void => {
      own.push(event);
      this.setup.postOwn(event);
    };
    const spend = new TreeSpend(
      this.setup.config.budget,
      this.setup.session.id ?? 'agent',
      this.setup.now,
      this.setup.parentSpend,
    );
    const approvals =
      input === undefined
        ? checkApprovals(options.approvals, this.setup.session.pendingToolCalls(), (id) =>
            this.setup.session.approvalDecision(id),
          )
        : {};
    const outputProblem =
      options.output === undefined ? undefined : zodSchemaProblem(options.output, 'run() option output');
    if (input !== undefined) {
      this.closeUnansweredCalls();
      this.setup.session.addUserMessage(input);
    }
    const tools = this.setup.activeTools();
    const actor: Actor<AnyActorLogic> = createActor(this.setup.machine, {
      input: {
        budget: this.setup.config.budget,
        maxParallelTools: this.setup.config.maxParallelTools,
        maxInvalidToolCalls: this.setup.config.maxInvalidToolCalls,
        resume: gatePending(this.setup.session, tools, this.pendingCalls(tools), approvals),
        agent: this.setup.session.activeAgent ?? MAIN_AGENT,
        // A resumed run goes on with the invalid calls it had counted; a new run starts at none.
        ...(input === undefined ? { invalidCalls: invalidCallsSoFar(this.setup.session.journal) } : {}),
        ...(options.outputRetries !== undefined ? { outputRetries: options.outputRetries } : {}),
        ...(outputProblem !== undefined ? { refusal: { reason: 'output_invalid', message: outputProblem } } : {}),
        ...contextInput(this.setup.config, this.setup.session, tools, this.tokenScale),
        ...(this.setup.parentSpend === undefined ? {} : { tree: spend }),
      },
      ...(this.setup.inspect ? { inspect: this.setup.inspect } : {}),
      ...(this.setup.clock ? { clock: this.setup.clock } : {}),
    });
    bindAgentRun(actor, this.setup.deps);
    const modelAbort = new LazyAbort();
    const output = options.output !== undefined && outputProblem === undefined ? runOutput(options.output) : undefined;
    const run: ActiveRun = {
      actor,
      queue,
      closing: undefined,
      modelAbort,
      requestOptions: requestOptions(modelAbort, output?.request),
      announced: new Set(),
      startedAt: this.setup.now(),
      // A resumed run's pending calls run with the tools of the agent in charge now.
      registry: tools,
      state: undefined,
      finished: false,
      settled: Promise.resolve(),
      release: unsubscribe,
      emit,
      post,
      fail: (error) => this.failInternally(run, error),
      spend,
      ...(output !== undefined ? { output } : {}),
    };
    this.active = run;
    runningSessions.add(this.setup.session);
    run.settled = new Promise<void>((resolve) => {
      actor.subscribe({
        complete: () => resolve(),
        error: (error: unknown) => {
          this.failInternally(run, error);
          resolve();
        },
      });
    });
    const onAbort = (): void =>
      this.abort(`run aborted by its signal: ${errorMessage(options.signal?.reason ?? 'aborted')}`);
    if (options.signal) {
      options.signal.addEventListener('abort', onAbort, { once: true });
      run.release = () => {
        unsubscribe();
        options.signal?.removeEventListener('abort', onAbort);
      };
    }
    // Started on the next microtask: a subscriber added right after `run()`, before the first
    // `next()`, still sees `agent_start`, while `abort()` already works (its ABORT waits in the
    // actor's mailbox). Announced before the machine starts, so a subscriber may abort on it.
    // (A promise job, not queueMicrotask: Node wraps each of those in an AsyncResource.)
    void Promise.resolve().then(() => {
      try {
        post(AgentEvent.agentStart(input ?? '', input === undefined));
        actor.start();
        if (options.signal?.aborted) onAbort();
      } catch (error) {
        // Say, an `inspect` observer that throws: end the run instead of leaving it hanging.
        this.failInternally(run, error);
      }
    });
    return run;
  }

  /** The run's last event, unless its store failed before the end was durable: then `store_error`. */
  private durableEnd(event: AgentEvent): AgentEvent {
    const failure = this.setup.session.storeFailure;
    if (failure === undefined || (event.type === 'agent_error' && event.data.reason === 'store_error')) return event;
    return AgentEvent.agentError('store_error', failure.message);
  }

  /** A new message after an interrupted run: the calls it never answered get error results first. */
  private closeUnansweredCalls(): void {
    for (const call of this.setup.session.pendingToolCalls()) {
      this.setup.session.addToolResult({ callId: call.callId, content: `Error: ${INTERRUPTED}` });
    }
  }

  /**
   * The calls an interrupted run still owes, for the machine: a call that never started runs; one
   * that started and has no result (in doubt) runs again only if its tool is idempotent, and is
   * otherwise answered `Error: interrupted: …` (it may or may not have taken effect).
   */
  private pendingCalls(tools: ToolRegistry): PendingCalls {
    const { session } = this.setup;
    const calls = session.pendingToolCalls();
    if (calls.length === 0) return NOTHING_PENDING; // the usual case: no arrays to make per run
    const answers = calls.map((call) =>
      session.toolCallStarted(call.callId) && !tools.isIdempotent(call.name)
        ? ToolResult.error(IN_DOUBT_ERROR)
        : undefined,
    );
    return {
      calls,
      concurrencySafe: calls.map((call) => tools.isConcurrencySafe(call.name)),
      ...(answers.some((answer) => answer !== undefined) ? { answers } : {}),
    };
  }

  /** Ends a run once: aborts it if it is still going, lets subscribers catch up, releases it. */
  close(run: ActiveRun, abortReason = 'the run was closed'): Promise<void> {
    run.closing ??= (async () => {
      if (!run.finished) {
        this.abort(abortReason);
        await run.settled; // tools answer an abort at once, so this is prompt
      }
      await this.setup.events.idle();
      const { tokenScale } = (run.actor.getSnapshot() as { context?: { tokenScale?: unknown } }).context ?? {};
      if (typeof tokenScale === 'number' && tokenScale > 0) this.tokenScale = tokenScale;
      run.actor.stop();
      unbindAgentRun(run.actor);
      run.release();
      this.setup.relayed.clear();
      run.queue.close();
      if (this.active === run) {
        this.active = undefined;
        runningSessions.delete(this.setup.session);
      }
    })();
    return run.closing;
  }

  /**
   * A bug inside the loop (an effect threw): the machine takes its `INTERNAL_ERROR` transition
   * to `error`. Only when the machine itself has failed (XState stopped it with an error) is the
   * end recorded here, as nothing else can record it.
   */
  private failInternally(run: RunHandle, error: unknown): void {
    if (run.finished) return;
    const message = `internal error: ${errorMessage(error)}`;
    if (run.actor.getSnapshot().status === 'active') {
      run.actor.send({ type: 'INTERNAL_ERROR', message });
      if (run.finished) return;
    }
    run.finished = true;
    run.modelAbort.abort('internal error');
    this.setup.session.recordError('internal_error', message);
    run.post(AgentEvent.agentError('internal_error', message));
  }
}
