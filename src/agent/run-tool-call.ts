import { AgentEvent } from '../core/agent-event.js';
import type { LazyAbort } from '../core/lazy-abort.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { HandoffEvent, ToolActorInput, ToolSettledEvent } from '../machines/agent-machine-types.js';
import type { ToolCallRunner } from '../machines/tool-actor-logic.js';
import { childSessionId } from '../session/child-session-id.js';
import { CallRunContext } from './call-run-context.js';
import { activeRun, boundDeps, type MachineDeps, type RunHandle } from './run-handle.js';

/** How a tool actor reports its call's outcome (and a handoff tool's `HANDOFF`, just before it). */
type ToolSettle = (event: ToolSettledEvent | HandoffEvent) => void;

/**
 * Runs one tool call of the run bound to `system`. The call starts once every event before it
 * has reached every subscriber (the bus is idle): a reader of `run()` holds each event until it
 * asks for the next, so the calls of a batch start one by one as the reader reads, and a reader
 * that stops at a `tool_call_start` keeps the later calls from starting. Starting is: journal the
 * write-ahead `tool_started` entry, announce `tool_call_start`, invoke the tool (so the tool has
 * started by the time a reader sees its announcement). The outcome goes to the machine, which
 * journals and reports it.
 */
export const runToolCall: ToolCallRunner = (input, settle, system, abort) => {
  // Unbound: the run has ended and released its agent; its actors, this one too, were stopped.
  const deps = boundDeps(system);
  if (deps === undefined) return;
  const run = activeRun(deps);
  if (run.state === undefined) {
    // A resumed run's pending calls are spawned by the machine's first step, and XState starts
    // those children before it runs that step's effects: wait for them (the journaled move into
    // executingTools), so that the calls start after it, as on every other turn.
    void Promise.resolve().then(() => runToolCall(input, settle, system, abort));
    return;
  }
  if (!deps.bus.isIdle && !abort.aborted) {
    void deps.bus.idle().then(() => runToolCall(input, settle, system, abort));
    return;
  }
  try {
    startTool(deps, run, input, settle, abort);
  } catch (error) {
    run.fail(error);
  }
};

function startTool(deps: MachineDeps, run: RunHandle, input: ToolActorInput, settle: ToolSettle, abort: LazyAbort) {
  const { call, index } = input;
  let context: CallRunContext | undefined;
  const report = (result: Parameters<typeof settleEvent>[2]): void => {
    const handoff = context?.handoff;
    const usage = context?.usage;
    if (handoff !== undefined) settle({ type: 'HANDOFF', index, ...handoff });
    const event = settleEvent(deps, run, result, index);
    settle(usage === undefined ? event : { ...event, usage });
  };
  if (input.answer !== undefined) {
    report(input.answer); // decided by the machine: not run, not journaled as started
    return;
  }
  // Cancelled while it waited to start: the registry answers without running the tool, so
  // nothing is journaled as started or announced.
  if (!abort.aborted) {
    const { session } = deps;
    const tool = run.registry.get(call.name);
    // A call in doubt on resume runs the child its start recorded.
    const child =
      tool?.runsAgent === true
        ? (session.startedChildSession(call.callId) ?? childSessionId(session.id, session.turnCount, call.callId))
        : undefined;
    context = new CallRunContext(deps, child);
    session.recordToolStart(call.callId, tool?.source, child);
    // SPEC §8 write-ahead: with a store, the start is durable before the tool runs (a failed
    // store aborts the run first, so the call is then answered without running).
    const durable = deps.session.settled();
    if (durable !== undefined) {
      durable.then(() => invokeTool(run, call, report, abort, context as CallRunContext), run.fail);
      return;
    }
  }
  invokeTool(run, call, report, abort, context ?? new CallRunContext(deps, undefined));
}

function invokeTool(
  run: RunHandle,
  call: ToolActorInput['call'],
  report: (result: Parameters<typeof settleEvent>[2]) => void,
  abort: LazyAbort,
  context: CallRunContext,
): void {
  if (!abort.aborted) {
    run.announced.add(call.callId);
    run.post(AgentEvent.toolCallStart(call));
  }
  const result = run.registry.invokeEager(call.name, call.arguments, {
    callId: call.callId,
    signal: abort,
    run: context,
  });
  if (isPromiseLike(result)) result.then(report, run.fail);
  else report(result);
}

function settleEvent(
  deps: MachineDeps,
  run: RunHandle,
  result: ToolSettledEvent['result'],
  index: number,
): ToolSettledEvent {
  return { type: 'TOOL_SETTLED', index, result, elapsedMs: deps.now() - run.startedAt };
}
