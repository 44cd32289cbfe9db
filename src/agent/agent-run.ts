import { type Actor, type AnyActorLogic, createActor, type InspectionEvent, type Observer } from 'xstate';
import type { Config } from '../config/config.js';
import { AgentEvent } from '../core/agent-event.js';
import { contentText, type MessageContent } from '../core/content-parts.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { LazyAbort } from '../core/lazy-abort.js';
import type { ModelClient } from '../core/model-client.js';
import type { EventBus, Subscriber } from '../events/event-bus.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { zodSchemaProblem } from '../tools/zod-schema.js';
import type { MachineClock, ResumeOptions } from './agent.js';
import { type ApprovalMap, checkApprovals } from './approval-controls.js';
import { AsyncQueue } from './async-queue.js';
import { type RunOutput, runOutput } from './output-check.js';
import { checkPolicyKeys } from './policy-keys.js';
import type { ProvidedAgentMachine } from './provide-machine.js';
import type { RelayedApprovals } from './relayed-approvals.js';
import { requestOptions } from './request-model.js';
import { openRunChannel, type RunChannel } from './run-channel.js';
import { bindAgentRun, type MachineDeps, type RunHandle, unbindAgentRun } from './run-handle.js';
import { runMachineInput } from './run-machine-input.js';
import { TreeSpend } from './tree-spend.js';

/** A run in progress, with the queue its event stream reads from. */
export type ActiveRun = RunHandle & { readonly queue: AsyncQueue<AgentEvent>; closing: Promise<void> | undefined };

const INTERRUPTED = 'the run was interrupted before this call finished, and it was not resumed';
/** Sessions with a run in progress, whichever agent runs it: two runs would interleave one journal. */
const runningSessions = new WeakSet<Session>();

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
  /** The agent's subscriber that holds each event until the entries before it are durable. */
  readonly storeBarrier: Subscriber;
}

/**
 * The run lifecycle of an agent (`Agent`): starts a run (`begin`), ends it once (`close`), and
 * records a failure of the loop itself.
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
  begin(input: MessageContent | undefined, options: ResumeOptions): ActiveRun {
    this.checkCanStart();
    const queue = new AsyncQueue<AgentEvent>();
    const channel = openRunChannel(this.setup, queue, () => void this.close(run)); // also when nobody reads the events
    const { config, session, parentSpend } = this.setup;
    const spend = new TreeSpend(config.budget, session.id ?? 'agent', this.setup.now, parentSpend);
    const { approvals, outputProblem } = this.takeInput(input, options);
    const tools = this.setup.activeTools();
    const actor: Actor<AnyActorLogic> = createActor(this.setup.machine, {
      input: runMachineInput(config, session, {
        tools,
        resuming: input === undefined,
        approvals,
        outputProblem,
        outputRetries: options.outputRetries,
        tokenScale: this.tokenScale,
        tree: parentSpend === undefined ? undefined : spend,
      }),
      ...(this.setup.inspect ? { inspect: this.setup.inspect } : {}),
      ...(this.setup.clock ? { clock: this.setup.clock } : {}),
    });
    bindAgentRun(actor, this.setup.deps);
    const output = options.output !== undefined && outputProblem === undefined ? runOutput(options.output) : undefined;
    const run = this.newRun(actor, queue, channel, tools, spend, output);
    this.hold(run);
    this.followSignal(run, options.signal, channel.unsubscribe);
    this.startSoon(run, input, options.signal);
    return run;
  }

  /**
   * Refuses a run that cannot start: one is running here or in the session, no client, a failed
   * store, a policy that names unknown tools.
   */
  private checkCanStart(): void {
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
  }

  /**
   * Checks what the run is asked with (the approvals given to `resume`, the `output` schema),
   * then appends a new message: after an interrupted run, its unanswered calls are closed first.
   */
  private takeInput(
    input: MessageContent | undefined,
    options: ResumeOptions,
  ): { approvals: ApprovalMap; outputProblem: string | undefined } {
    const { session } = this.setup;
    const approvals =
      input === undefined
        ? checkApprovals(options.approvals, session.pendingToolCalls(), (id) => session.approvalDecision(id))
        : {};
    const outputProblem =
      options.output === undefined ? undefined : zodSchemaProblem(options.output, 'run() option output');
    if (input !== undefined) {
      this.closeUnansweredCalls();
      session.addUserMessage(input);
    }
    return { approvals, outputProblem };
  }

  /** The handle of a run whose actor is made and bound, not yet started. */
  private newRun(
    actor: Actor<AnyActorLogic>,
    queue: AsyncQueue<AgentEvent>,
    channel: RunChannel,
    tools: ToolRegistry,
    spend: TreeSpend,
    output: RunOutput | undefined,
  ): ActiveRun {
    const modelAbort = new LazyAbort();
    const run: ActiveRun = {
      actor,
      queue,
      closing: undefined,
      modelAbort,
      guardrailAbort: new LazyAbort(),
      requestOptions: requestOptions(modelAbort, output?.request, this.setup.session.id),
      announced: new Set(),
      startedAt: this.setup.now(),
      // A resumed run's pending calls run with the tools of the agent in charge now.
      registry: tools,
      state: undefined,
      finished: false,
      settled: Promise.resolve(),
      release: channel.unsubscribe,
      emit: channel.emit,
      post: channel.post,
      readerCaughtUp: channel.caughtUp,
      fail: (error) => this.failInternally(run, error),
      spend,
      ...(output !== undefined ? { output } : {}),
    };
    return run;
  }

  /** Makes `run` the one in progress, here and in the session, until its machine stops (`settled`). */
  private hold(run: ActiveRun): void {
    this.active = run;
    runningSessions.add(this.setup.session);
    run.settled = new Promise<void>((resolve) => {
      run.actor.subscribe({
        complete: () => resolve(),
        error: (error: unknown) => {
          this.failInternally(run, error);
          resolve();
        },
      });
    });
  }

  /** Aborts `run` when `signal` does; releasing the run stops listening. */
  private followSignal(run: ActiveRun, signal: AbortSignal | undefined, unsubscribe: () => void): void {
    if (!signal) return;
    const onAbort = (): void => this.abortBy(signal);
    signal.addEventListener('abort', onAbort, { once: true });
    run.release = () => {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    };
  }

  /** Ends the run in progress because `signal` aborted. */
  private abortBy(signal: AbortSignal): void {
    this.abort(`run aborted by its signal: ${errorMessage(signal.reason ?? 'aborted')}`);
  }

  /**
   * Announces the run (`agent_start`) and starts its machine on the next microtask: a subscriber
   * added right after `run()`, before the first `next()`, still sees `agent_start`, while
   * `abort()` already works (its ABORT waits in the actor's mailbox). Announced before the
   * machine starts, so a subscriber may abort on it.
   */
  private startSoon(run: ActiveRun, input: MessageContent | undefined, signal: AbortSignal | undefined): void {
    // A promise job, not queueMicrotask: Node wraps each of those in an AsyncResource.
    void Promise.resolve().then(() => {
      try {
        run.post(
          AgentEvent.agentStart(
            input === undefined ? '' : contentText(input),
            input === undefined,
            run.registry.sandboxes(),
          ),
        );
        run.actor.start();
        if (signal?.aborted) this.abortBy(signal);
      } catch (error) {
        // Say, an `inspect` observer that throws: end the run instead of leaving it hanging.
        this.failInternally(run, error);
      }
    });
  }

  /** A new message after an interrupted run: the calls it never answered get error results first. */
  private closeUnansweredCalls(): void {
    for (const call of this.setup.session.pendingToolCalls()) {
      this.setup.session.addToolResult({ callId: call.callId, content: `Error: ${INTERRUPTED}` });
    }
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
    run.guardrailAbort.abort('internal error');
    this.setup.session.recordError('internal_error', message);
    run.post(AgentEvent.agentError('internal_error', message));
  }
}
