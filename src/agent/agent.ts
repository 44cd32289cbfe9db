import { filter, type Observable, Subject } from 'rxjs';
import type { InspectionEvent, Observer } from 'xstate';
import type { z } from 'zod';
import { Config } from '../config/config.js';
import { AgentEvent, type AgentEventDataMap } from '../core/agent-event.js';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import type { ToolCall } from '../core/messages.js';
import type { ModelClient } from '../core/model-client.js';
import { monotonicNow } from '../core/monotonic-now.js';
import { EventBus, type StreamRecord, type Subscriber } from '../events/event-bus.js';
import type { AgentStateName } from '../machines/agent-machine-types.js';
import { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { type ActiveRun, AgentRuns } from './agent-run.js';
import type { ChildAgentRun } from './agent-run-context.js';
import { type ApproveOptions, checkedEdit } from './approval-edit.js';

export type { ApproveOptions } from './approval-edit.js';

import {
  type ApprovalMap,
  callsAwaitingApproval,
  checkApprovals,
  DEFAULT_DENIAL,
  sendDecisions,
} from './approval-controls.js';
import { activeRegistry } from './handoffs.js';
import { agentRunMachine, type ProvidedAgentMachine } from './provide-machine.js';
import { RelayedApprovals } from './relayed-approvals.js';
import { RunEvents } from './run-events.js';
import type { MachineDeps } from './run-handle.js';
import { checkRunInput } from './run-input.js';
import type { TreeSpend } from './tree-spend.js';

/** Refuses run options that cannot work, naming the option (`invalid_argument`). */
function checkRunOptions(options: RunOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new HarnessError(
      'invalid_argument',
      `run() options must be an object, got ${options === null ? 'null' : typeof options}`,
    );
  }
  const { output, outputRetries, signal } = options as RunOptions & { signal?: unknown };
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new HarnessError('invalid_argument', 'run() option signal must be an AbortSignal (from an AbortController)');
  }
  if (output !== undefined && typeof (output as { safeParse?: unknown }).safeParse !== 'function') {
    throw new HarnessError('invalid_argument', 'run() option output must be a zod schema');
  }
  if (
    outputRetries !== undefined &&
    (typeof outputRetries !== 'number' || !Number.isInteger(outputRetries) || outputRetries < 0)
  ) {
    throw new HarnessError(
      'invalid_argument',
      `run() option outputRetries must be a non-negative integer, got ${String(outputRetries)}`,
    );
  }
}

/** A generator that fails on its first `next()`. */
// biome-ignore lint/correctness/useYield: it only throws
async function* failing(error: unknown): AsyncGenerator<AgentEvent, void, undefined> {
  throw error;
}

/** A clock for the machine's delayed events (XState's `SimulatedClock` fits). */
export interface MachineClock {
  /** Calls `fn` after `timeout` ms; returns an id for `clearTimeout`. */
  setTimeout(fn: (...args: unknown[]) => void, timeout: number): unknown;
  /** Cancels a pending `setTimeout`. */
  clearTimeout(id: unknown): void;
}

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** The session to run in: the journal of the conversation; a new one (in memory) when absent. */
  readonly session?: Session;
  /** The model client the agent calls; the session's (deprecated) client when absent. */
  readonly client?: ModelClient;
  /** The tools the agent may run; the session's (deprecated) registry, or none, when absent. */
  readonly tools?: ToolRegistry;
  /**
   * The tools the agent may run.
   * @deprecated Use `tools`; kept for one minor version (`tools` wins when both are given).
   */
  readonly registry?: ToolRegistry;
  /** The event bus; a new one by default. */
  readonly events?: EventBus;
  /** XState inspection observer (e.g. `createBrowserInspector().inspect` from `@statelyai/inspect`). */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Clock for the machine's timers (the wall-clock budget); XState's `SimulatedClock` in tests. */
  readonly clock?: MachineClock;
  /** Monotonic milliseconds, for elapsed time; `performance.now` by default. */
  readonly now?: () => number;
  /**
   * Tool sources whose tool lists may change (MCP servers): refreshed into the registry before
   * each model request, so a turn never sees its tools change under it.
   */
  readonly toolSources?: readonly ToolSource[];
  /**
   * How deeply this agent is nested under others: 0 (the default) for a top-level agent;
   * `agentTool` gives the child it starts its parent's depth + 1 (bounded by `Config.maxAgentDepth`).
   */
  readonly depth?: number;
  /**
   * For a sub-agent: the live spend of the run whose tool call starts it (`agentTool` passes
   * `ToolRunContext.spend`). Each of this agent's requests is then checked against the budgets
   * of every agent above it, and charged to them as its usage arrives.
   */
  readonly parentSpend?: TreeSpend;
}

/** Something that can bring a registry up to date with its tools (an `McpSource`). */
export interface ToolSource {
  /** Applies the source's latest tool list to `registry`; cheap when nothing changed. */
  refresh(registry: ToolRegistry): unknown;
  /** Settles once the lists the source was told of have arrived (awaited before `refresh`). */
  listed?(): Promise<void>;
}

/** Options of one {@link Agent.run}. */
export interface RunOptions {
  /** Aborting it ends the run with reason `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * Ask for a structured final answer: JSON that this zod schema accepts. The answer is checked;
   * one that fails goes back to the model with the problem (at most `outputRetries` times, each a
   * turn), then the run ends with `output_invalid`. `agent_end.data.output` is the parsed value
   * (journaled: it must be JSON).
   */
  readonly output?: z.ZodType;
  /** How many failing answers are sent back before `output_invalid` (default 2). */
  readonly outputRetries?: number;
}

/** Options of {@link Agent.resume}. */
export interface ResumeOptions extends RunOptions {
  /**
   * Decisions on calls that wait for approval, given before the run starts (callId → `approve`
   * or `deny`): applied without asking. Calls not named are asked again.
   */
  readonly approvals?: ApprovalMap;
}

/** `agent_end` of a run that asked for structured output: its `output` is the parsed value. */
export type AgentEndWithOutput<T> = {
  readonly type: 'agent_end';
  readonly data: AgentEventDataMap['agent_end'] & { readonly output: T };
};

/** The events of a run that asked for structured output of type `T`. */
export type RunEvent<T> = Exclude<AgentEvent, AgentEvent<'agent_end'>> | AgentEndWithOutput<T>;

/**
 * Runs the agent loop. Each `run()` starts the agent machine, streams its events, and always
 * ends with exactly one `agent_end` or `agent_error`, last. Nothing a model, a tool or a
 * subscriber does makes `run()` throw.
 */
export class Agent {
  /** The configuration (workspace, budget, limits). */
  readonly config: Config;
  /** The session the agent runs in: its messages, usage and journal. */
  readonly session: Session;
  /** Lifecycle events, delivered to subscribers in order with backpressure. */
  readonly events: EventBus;
  /** The agent machine with the agent's actors and effects provided (one for all agents; each run is bound to this one). */
  readonly machine: ProvidedAgentMachine;
  /** How deeply this agent is nested under others (0 for a top-level agent). */
  readonly depth: number;
  /** The model client the agent calls (none: a run throws `no_client`). */
  readonly client: ModelClient | undefined;
  /** The agent's own tools (a handoff may put another agent's in charge: see {@link Agent.activeTools}). */
  readonly tools: ToolRegistry;
  /**
   * The child agents this agent's tool calls start (`agentTool`), each announced before its run
   * starts: tracing nests their spans under the call, an inspector follows them.
   */
  get children$(): Observable<ChildAgentRun> {
    this.children ??= new Subject<ChildAgentRun>();
    return this.children;
  }
  /** Made when someone asks for {@link Agent.children$}: an agent nobody traces keeps none. */
  private children: Subject<ChildAgentRun> | undefined;
  private ownStream: Observable<StreamRecord> | undefined;
  private readonly inspect: AgentOptions['inspect'];
  private readonly clock: MachineClock | undefined;
  private readonly now: () => number;
  /** The run lifecycle: the run in progress, its start and its end. */
  private readonly runs: AgentRuns;
  private readonly deps: MachineDeps;
  private readonly parentSpend: TreeSpend | undefined;
  /** Sub-agents' calls this agent's approver was asked about. */
  private readonly relayed = new RelayedApprovals();
  /** The journal entry this agent is publishing on its bus, and its index, while it does. */
  private publishingEntry: JournalEntry | undefined;
  private publishingIndex = -1;
  /** The event this agent is emitting on its bus, while the bus publishes it (synchronously). */
  private emitting: AgentEvent | undefined;
  /** Holds each event until the entries before it are durable (subscribed when the session has a store). */
  private readonly storeBarrier: Subscriber = () => this.session.settled();

  constructor(config: Config, options: AgentOptions = {}) {
    checkAgentArguments(config, options);
    this.config = config;
    this.session = options.session ?? new Session(config);
    // A session made the deprecated way holds the client and tools: the agent runs with them.
    this.client = options.client ?? this.session.client;
    this.tools = options.tools ?? options.registry ?? this.session.registry;
    this.events = options.events ?? new EventBus();
    this.inspect = options.inspect;
    this.clock = options.clock;
    this.now = options.now ?? monotonicNow;
    this.machine = agentRunMachine;
    this.depth = nestingDepth(options.depth);
    this.parentSpend = options.parentSpend;
    this.deps = {
      depth: this.depth,
      adopt: (child) => this.children?.next(child),
      relayApproval: (name, request, child) => this.relayApproval(name, request, child),
      session: this.session,
      client: this.client,
      guardrails: config.guardrails,
      maxAttachmentBytes: config.maxAttachmentBytes,
      tools: this.tools,
      activeTools: () => this.activeTools,
      bus: this.events,
      current: () => this.runs.active,
      now: this.now,
      toolSources: options.toolSources ?? [],
    };
    this.runs = new AgentRuns({
      config,
      session: this.session,
      events: this.events,
      machine: this.machine,
      depth: this.depth,
      client: this.client,
      tools: this.tools,
      activeTools: () => this.activeTools,
      deps: this.deps,
      inspect: this.inspect,
      clock: this.clock,
      now: this.now,
      parentSpend: this.parentSpend,
      relayed: this.relayed,
      emitOwn: (event) => this.emitOwn(event),
      postOwn: (event) => this.postOwn(event),
      storeBarrier: this.storeBarrier,
    });
    // One log: every journal entry goes out on the stream as it is appended, with its index.
    const bus = this.events;
    this.session.onAppend((entry, journalIndex) => {
      if (entry.type === 'usage') this.runs.active?.spend.charge(entry.usage);
      const outerEntry = this.publishingEntry;
      const outerIndex = this.publishingIndex;
      this.publishingEntry = entry; // two fields, not an object per entry: about nine entries a turn
      this.publishingIndex = journalIndex;
      try {
        bus.record(entry, journalIndex);
      } finally {
        this.publishingEntry = outerEntry;
        this.publishingIndex = outerIndex;
      }
    });
    if (this.session.store !== undefined) this.guardStore();
  }

  /** The whole stream: every machine transition and every event, as it happens. */
  get stream$(): Observable<StreamRecord> {
    // A bus may be shared by several agents: this agent's stream is its session's entries and its
    // own events only. Entries and events may be shared frozen objects (one `turn_start` for all
    // sessions), so a record is this agent's when it is the one this agent is publishing right
    // now: the bus publishes synchronously, inside `record` and `emit`.
    this.ownStream ??= this.events.stream$.pipe(
      filter((record) =>
        record.journalIndex === undefined
          ? record.entry === this.emitting
          : record.entry === this.publishingEntry && record.journalIndex === this.publishingIndex,
      ),
    );
    return this.ownStream;
  }

  /**
   * A session with a store (SPEC §8): each event reaches the subscribers after it (the reader of
   * `run()` among them) once the entries before it are durable, and a failed store ends the run
   * with reason `store_error`.
   */
  private guardStore(): void {
    const { session } = this;
    this.events.subscribe(this.storeBarrier);
    session.onStoreFailure((error) => {
      const run = this.runs.active;
      if (run !== undefined && !run.finished) {
        run.actor.send({ type: 'ABORT', reason: 'store_error', message: error.message });
      }
    });
  }

  /**
   * The tools of the agent in charge: after a handoff (journaled in the session), the registry of
   * the agent handed to, found among the handoff tools reachable from {@link Agent.tools};
   * otherwise the agent's own.
   */
  get activeTools(): ToolRegistry {
    return activeRegistry(this.tools, this.session.activeAgent);
  }

  /** The machine state of the run in progress, or undefined between runs. */
  get state(): AgentStateName | undefined {
    return this.runs.active?.state;
  }

  /**
   * Runs the loop on a new user message (a string, or content parts: text, images, files; each
   * image or file at most `Config.maxAttachmentBytes`) and yields every event, ending with `agent_end` or
   * `agent_error`. Once read, it paces the loop as a generator does: the loop goes on when the
   * reader asks for the next event (a run nobody reads still finishes). Throws only for misuse:
   * no model client, or a run already in progress.
   */
  run<T>(
    input: MessageContent,
    options: RunOptions & { readonly output: z.ZodType<T> },
  ): AsyncGenerator<RunEvent<T>, void, undefined>;
  run(input: MessageContent, options?: RunOptions): AsyncGenerator<AgentEvent, void, undefined>;
  run(input: MessageContent, options: RunOptions = {}): AsyncGenerator<AgentEvent, void, undefined> {
    checkRunOptions(options);
    return this.drive(checkRunInput(input, this.config.maxAttachmentBytes), options);
  }

  /**
   * Resumes an interrupted run of this session (for example one rebuilt with
   * `Session.replay` after a crash or a `model_error`): recorded tool results are kept, calls
   * still owed a result run first, then the loop asks the model again. Throws
   * `nothing_to_resume` when the last run ended with a final answer.
   */
  resume(options: ResumeOptions = {}): AsyncGenerator<AgentEvent, void, undefined> {
    checkRunOptions(options);
    const { messages, pendingAnswer } = this.session;
    if (pendingAnswer !== undefined || !messages.some((message) => message.role === 'user')) {
      throw new HarnessError(
        'nothing_to_resume',
        pendingAnswer !== undefined
          ? 'the last run ended with a final answer; call run() with a new message'
          : 'the session has no user message to resume from',
      );
    }
    checkApprovals(options.approvals, this.session.pendingToolCalls(), (id) => this.session.approvalDecision(id));
    return this.drive(undefined, options);
  }

  /** The calls of the run in progress that wait for a decision (tool policy `ask`), in the model's order. */
  pendingApprovals(): ToolCall[] {
    return callsAwaitingApproval(this.runs.active?.actor);
  }

  /**
   * Approves calls that wait for a decision: each runs (once the schedule reaches it). Returns
   * the ids it decided; other ids change nothing. (Called from a synchronous subscriber while the
   * machine is mid-step, the decision is queued and applied right after that step, and the
   * returned list is empty.) With `{ arguments }`, approves one call with edited arguments:
   * an edit that does not fit the tool's schema throws `invalid_argument` naming the call and
   * the issue, and the call keeps waiting.
   */
  approve(callIds: string | readonly string[], options?: ApproveOptions): string[] {
    const edit = options?.arguments;
    const ids = typeof callIds === 'string' ? [callIds] : callIds;
    if (edit !== undefined) {
      if (!Array.isArray(ids) || ids.length !== 1 || typeof ids[0] !== 'string')
        throw new HarnessError('invalid_argument', 'approve(callId, { arguments }) edits one call: give one call id');
      const callId = ids[0];
      const call = callsAwaitingApproval(this.runs.active?.actor).find((waiting) => waiting.callId === callId);
      if (call === undefined)
        return this.relayed.forward(ids, [], (child, id) => child.approve(id, { arguments: edit }));
      const decision = { approved: true as const, arguments: checkedEdit(call, edit, this.activeTools) };
      return sendDecisions(this.runs.active?.actor, callId, decision);
    }
    const taken = sendDecisions(this.runs.active?.actor, callIds, { approved: true });
    return [...taken, ...this.relayed.forward(ids, taken, (child, id) => child.approve(id))];
  }

  /**
   * Denies calls that wait for a decision: each is answered `Error: denied: <reason>` without
   * running. Returns the ids that were waiting.
   */
  deny(callIds: string | readonly string[], reason = DEFAULT_DENIAL): string[] {
    if (typeof reason !== 'string' || reason.trim() === '') reason = DEFAULT_DENIAL;
    const taken = sendDecisions(this.runs.active?.actor, callIds, { approved: false, reason });
    const ids = typeof callIds === 'string' ? [callIds] : callIds;
    const denial = reason;
    return [...taken, ...this.relayed.forward(ids, taken, (child, id) => child.deny(id, denial))];
  }

  /**
   * A sub-agent started by the call of tool `name` asks about one of its calls: this agent's
   * approver is asked, on this run's stream, with the path to the sub-agent; this agent's
   * `approve`/`deny` then decide it.
   */
  private relayApproval(name: string, request: AgentEvent<'tool_approval_request'>['data'], child: Agent): void {
    const run = this.runs.active;
    if (run === undefined || run.finished) return;
    this.relayed.add(request.callId, child);
    const call = { callId: request.callId, name: request.name, arguments: request.arguments };
    run.post(AgentEvent.toolApprovalRequest(call, [name, ...(request.path ?? [])], request.rule));
  }

  /**
   * Ends a run that waits for approval (state `awaitingApproval`) with reason `suspended`; the
   * undecided calls stay pending, unanswered, and `resume()` (also on a session loaded
   * elsewhere) asks for them again. Returns false, changing nothing, when the run is not waiting.
   */
  suspend(): boolean {
    const run = this.runs.active;
    if (run === undefined || run.finished || run.state !== 'awaitingApproval') return false;
    run.actor.send({ type: 'SUSPEND' });
    return run.finished;
  }

  /**
   * Starts the run at once (so `abort()` works before the first event is read) and returns the
   * stream of its events. Misuse errors surface on the first `next()`.
   */
  private drive(
    input: MessageContent | undefined,
    options: ResumeOptions,
  ): AsyncGenerator<AgentEvent, void, undefined> {
    let run: ActiveRun;
    try {
      run = this.runs.begin(input, options);
    } catch (error) {
      return failing(error);
    }
    return new RunEvents(run.queue, (reason) => this.runs.close(run, reason));
  }

  /** Ends the run in progress with reason `aborted`; tools in flight see their signal. */
  abort(reason = 'run aborted'): void {
    this.runs.abort(reason);
  }

  /** Emits this agent's `event` on its bus (see `emitting`); resolves once every subscriber has it. */
  private emitOwn(event: AgentEvent): Promise<void> {
    const outer = this.emitting;
    this.emitting = event;
    try {
      return this.events.emit(event);
    } finally {
      this.emitting = outer;
    }
  }

  /** Emits this agent's `event` on its bus, as {@link Agent.emitOwn} does but with no promise. */
  private postOwn(event: AgentEvent): void {
    const outer = this.emitting;
    this.emitting = event;
    try {
      this.events.post(event);
    } finally {
      this.emitting = outer;
    }
  }
}

/** The nesting depth option: a whole number from 0 (the default). */
function nestingDepth(depth: unknown): number {
  if (depth === undefined) return 0;
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0)
    throw new HarnessError('invalid_argument', `options.depth must be a whole number >= 0, got ${String(depth)}`);
  return depth;
}

/** Refuses a constructor call whose config, session or bus is not one (a plain object, null). */
function checkAgentArguments(config: unknown, options: unknown): void {
  if (!(config instanceof Config))
    throw new HarnessError(
      'invalid_argument',
      'new Agent(config, options): config must be a Config (new Config({...}))',
    );
  if (typeof options !== 'object' || options === null)
    throw new HarnessError('invalid_argument', 'new Agent(config, options): options must be an object');
  const { session, events } = options as { session?: unknown; events?: unknown };
  if (session !== undefined && !(session instanceof Session))
    throw new HarnessError('invalid_argument', 'options.session must be a Session (new Session(config, {...}))');
  if (events !== undefined && !(events instanceof EventBus))
    throw new HarnessError('invalid_argument', 'options.events must be an EventBus');
}
