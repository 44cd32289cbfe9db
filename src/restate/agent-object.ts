import type { ObjectContext, ObjectSharedContext } from '@restatedev/restate-sdk';
import * as restate from '@restatedev/restate-sdk';
import { Agent } from '../agent/agent.js';
import { checkRunInput } from '../agent/run-input.js';
import type { Config } from '../config/config.js';
import type { AgentEvent } from '../core/agent-event.js';
import { checkContent } from '../core/content-check.js';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import type { ModelClient } from '../core/model-client.js';
import { printableLine } from '../core/printable.js';
import { Session } from '../session/session.js';
import type { JournalStore, StoredEntry } from '../stores/journal-store.js';
import { storedLength } from '../stores/stored-length.js';
import { ToolRegistry } from '../tools/registry.js';
import { DurableClient } from './durable-client.js';
import { durableGuardrails } from './durable-guardrails.js';
import { DurableSteps, type StepTiming } from './durable-steps.js';
import { DurableTools } from './durable-tools.js';
import { ensurePromiseWithResolvers } from './polyfill.js';
import { DEFAULT_SERVICE, type Decision, type RunOutcome, type RunRequest } from './protocol.js';
import { STEP_BOUNDARY_TIMERS, StepClock } from './step-clock.js';

/** What a worker needs to run a session's agent: the same for every execution of a run. */
export interface AgentParts {
  /** The configuration (budgets, permissions, system prompt). */
  readonly config: Config;
  /** The model client; each turn becomes a durable step. */
  readonly client: ModelClient;
  /** The tools; each call becomes a durable step. None by default. */
  readonly tools?: ToolRegistry;
}

/** Options of {@link agentObject}. */
export interface AgentObjectOptions {
  /** The virtual object's name (`agent` by default): ingress paths are `/<name>/<session id>/…`. */
  readonly name?: string;
  /**
   * Where the journals live, shared by every worker (a `postgres://` store across machines, a
   * `sqlite:` file on one): `Session.load`, `inspect`, fork and replay read the same journal.
   */
  readonly store: JournalStore;
  /** Makes the agent's parts for a session; called once per execution of a run. */
  readonly agent: (sessionId: string) => AgentParts | Promise<AgentParts>;
  /**
   * How long an execution waits for the journal's lock held by an execution that Restate gave
   * up on (a worker cut off, not dead), in ms. 30 000 by default.
   */
  readonly lockWaitMs?: number;
  /** Called after each durable step with how long it took (metrics; `bench:scale` uses it). */
  readonly onStep?: (timing: StepTiming) => void;
}

/** The state keys the run handler keeps in Restate, for the shared handlers. */
const RUNNING = 'running';
const APPROVALS = 'approvals';

/**
 * The agent as a Restate virtual object keyed by session id: Restate's single writer per key
 * runs one run of a session at a time. Handlers: `run` ({@link RunRequest} → {@link RunOutcome}),
 * and the shared `decide` ({@link Decision}), `cancel` and `status`.
 */
export function agentObject(options: AgentObjectOptions) {
  ensurePromiseWithResolvers();
  const name = options.name ?? DEFAULT_SERVICE;
  return restate.object({
    name,
    handlers: {
      run: async (ctx: ObjectContext, request: RunRequest): Promise<RunOutcome> => runHandler(ctx, request, options),
      decide: restate.handlers.object.shared(async (ctx: ObjectSharedContext, decision: Decision) => {
        const checked = checkDecision(decision);
        const waiting = (await ctx.get<Record<string, string>>(APPROVALS)) ?? {};
        const id = waiting[checked.callId];
        if (id === undefined) {
          const known = Object.keys(waiting);
          throw new restate.TerminalError(
            `session '${ctx.key}' has no call '${printableLine(checked.callId)}' waiting for a decision (waiting: ${known.length === 0 ? 'none' : known.join(', ')})`,
            { errorCode: 404 },
          );
        }
        ctx.resolveAwakeable(id, checked);
        return { callId: checked.callId, approved: checked.approve };
      }),
      cancel: restate.handlers.object.shared(async (ctx: ObjectSharedContext) => {
        const id = await ctx.get<string>(RUNNING);
        if (id === null) {
          throw new restate.TerminalError(`session '${ctx.key}' has no run in progress`, { errorCode: 404 });
        }
        ctx.cancel(restate.InvocationIdParser.fromString(id));
        return { invocationId: id };
      }),
      status: restate.handlers.object.shared(async (ctx: ObjectSharedContext) => {
        const running = await ctx.get<string>(RUNNING);
        const waiting = (await ctx.get<Record<string, string>>(APPROVALS)) ?? {};
        return { running, waiting: Object.keys(waiting) };
      }),
    },
  });
}

function checkRequest(request: unknown): RunRequest {
  const task = (request as { task?: unknown } | null)?.task;
  if (typeof task !== 'string' && !Array.isArray(task)) {
    throw new restate.TerminalError(
      'run needs {"task": "<the user message>"} or {"task": [content parts]} ("" continues an interrupted run)',
      { errorCode: 400 },
    );
  }
  // Parts are checked for shape here and against the agent's cap once its config is known (refuseInput).
  return { task: terminalOnInvalid(() => checkContent(task, 'run request task', Number.POSITIVE_INFINITY)) };
}

/**
 * Refuses a task the agent's `run()` would refuse (blank text, an image or file over
 * `Config.maxAttachmentBytes`) as a terminal error: thrown later, it would fail every retry.
 */
function refuseInput(task: MessageContent, config: Config): void {
  if (task !== '') terminalOnInvalid(() => checkRunInput(task, config.maxAttachmentBytes));
}

/** `check()`'s value; its `HarnessError` (bad input) as a terminal error, which Restate does not retry. */
function terminalOnInvalid<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!HarnessError.isInstance(error)) throw error;
    throw new restate.TerminalError(error.message, { errorCode: 400 });
  }
}

function checkDecision(decision: unknown): Decision {
  const { callId, approve, reason } = (decision ?? {}) as Partial<Record<keyof Decision, unknown>>;
  if (
    typeof callId !== 'string' ||
    typeof approve !== 'boolean' ||
    (reason !== undefined && typeof reason !== 'string')
  ) {
    throw new restate.TerminalError('decide needs {"callId": string, "approve": boolean, "reason"?: string}', {
      errorCode: 400,
    });
  }
  return reason === undefined ? { callId, approve } : { callId, approve, reason };
}

/** Calls an earlier execution started and did not finish, by the entries it stored. */
function callsInDoubt(recorded: readonly StoredEntry[]): Set<string> {
  const started = new Set<string>();
  for (const entry of recorded) {
    const callId = (entry as { callId?: unknown }).callId;
    if (typeof callId !== 'string') continue;
    if (entry.type === 'tool_started') started.add(callId);
    else if (entry.type === 'tool_result') started.delete(callId);
  }
  return started;
}

/**
 * One execution of a run. The first executes it; after a crash, Restate executes it again on
 * any worker, from the start: every step already recorded returns its recorded value, so the
 * agent takes the same path to where the last execution stopped, and goes on from there.
 */
async function runHandler(ctx: ObjectContext, input: RunRequest, options: AgentObjectOptions): Promise<RunOutcome> {
  const request = checkRequest(input);
  const sessionId = ctx.key;
  ctx.set(RUNNING, ctx.request().id);
  const clock = new StepClock(0);
  let agent: Agent | undefined;
  let session: Session | undefined;
  let over = false;
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  // This execution is over without an end of its own (suspended, cut off, diverged): stop the
  // agent without writing anything more; the next execution writes what comes next.
  const tearDown = (): void => {
    if (over) return;
    over = true;
    steps.stop();
    void session?.close().catch(() => {});
    agent?.abort('this execution of the run ended');
  };
  const steps = new DurableSteps(
    ctx,
    clock,
    sessionId,
    {
      cancelled: () => agent?.abort('cancelled through Restate'),
      ended: tearDown,
      diverged: (error) => {
        tearDown();
        fail(error);
      },
    },
    options.onStep,
  );
  ctx.request().attemptCompletedSignal.addEventListener('abort', tearDown, { once: true });

  const at = await steps.run('begin', () => storedLength(options.store, sessionId));
  const parts = await options.agent(sessionId);
  try {
    refuseInput(request.task, parts.config);
  } catch (error) {
    ctx.clear(RUNNING);
    throw error;
  }
  // Each guardrail check is a step too: a re-execution gets its recorded verdict.
  const config = parts.config.withGuardrails(durableGuardrails(parts.config.guardrails, steps));
  const loaded = await Session.loadAt(options.store, sessionId, {
    at,
    config,
    lockWaitMs: options.lockWaitMs ?? 30_000,
  });
  session = loaded.session;
  if (over) {
    await session.close();
    return new Promise<never>(() => {});
  }
  const tools = new DurableTools(
    config,
    parts.tools ?? new ToolRegistry(parts.config),
    steps,
    callsInDoubt(loaded.recorded),
  );
  agent = new Agent(config, {
    session,
    client: new DurableClient(parts.client, steps),
    tools,
    now: clock.now,
    clock: STEP_BOUNDARY_TIMERS,
  });
  const checking = checkSameEntries(agent, at, loaded.recorded, sessionId, (error) => {
    tearDown();
    fail(error);
  });
  // A divergence fails this execution, not the run: Restate keeps the run and tries again (the
  // message is the invocation's last failure), so a worker with the code that started the run
  // finishes it. A terminal error is not possible here: the recorded steps were not all replayed.
  try {
    const last = await Promise.race([drive(ctx, agent, steps, request.task), failed]);
    await session.close();
    ctx.clear(APPROVALS);
    ctx.clear(RUNNING);
    return outcome(sessionId, last, session.journal.length);
  } finally {
    checking.unsubscribe();
  }
}

/** Reads the run's events; a call that asks waits on an awakeable that `decide` resolves. */
async function drive(
  ctx: ObjectContext,
  agent: Agent,
  steps: DurableSteps,
  task: MessageContent,
): Promise<AgentEvent | undefined> {
  const waiting: Record<string, string> = {};
  let last: AgentEvent | undefined;
  for await (const event of task === '' ? agent.resume() : agent.run(task)) {
    last = event;
    if (event.type !== 'tool_approval_request') continue;
    const { callId } = event.data;
    const { id, promise } = ctx.awakeable<Decision>();
    waiting[callId] = id;
    ctx.set(APPROVALS, { ...waiting });
    steps.wait(promise).then(
      (decision) => (decision.approve ? agent.approve(callId) : agent.deny(callId, decision.reason)),
      () => {}, // cancelled: the run is aborted
    );
  }
  return last;
}

/**
 * Checks that the entries this execution makes again are the ones the earlier execution stored
 * (same type at the same place): anything else means the code changed under a recorded run.
 */
function checkSameEntries(
  agent: Agent,
  at: number,
  recorded: readonly StoredEntry[],
  sessionId: string,
  diverged: (error: HarnessError) => void,
) {
  return agent.stream$.subscribe((record) => {
    const index = record.journalIndex;
    if (index === undefined || index < at || index >= at + recorded.length) return;
    const expected = recorded[index - at]?.type;
    if (record.entry.type !== expected) {
      diverged(
        new HarnessError(
          'invalid_journal',
          `divergence in session '${sessionId}' at journal entry ${index}: the run stored '${String(expected)}', but this worker's code made '${record.entry.type}'; finish the run with the code that started it, or cancel it`,
        ),
      );
    }
  });
}

function outcome(sessionId: string, last: AgentEvent | undefined, entries: number): RunOutcome {
  if (last?.type === 'agent_end') return { sessionId, status: 'done', response: last.data.response, entries };
  if (last?.type === 'agent_error') {
    return { sessionId, status: 'error', reason: last.data.reason, message: last.data.message, entries };
  }
  return { sessionId, status: 'error', reason: 'aborted', message: 'the run ended without a final event', entries };
}
