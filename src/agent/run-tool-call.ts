import { AgentEvent } from '../core/agent-event.js';
import { isPromiseLike } from '../core/promise-like.js';
import { isDelivered } from '../events/event-bus.js';
import type { ToolActorInput, ToolSettledEvent } from '../machines/agent-machine-types.js';
import type { ToolCallRunner } from '../machines/tool-actor-logic.js';
import { ToolResult } from '../tools/tool-result.js';
import { TOOLS_WITHHELD_ERROR } from './budget-message.js';
import { activeRun, depsOf, type MachineDeps, type RunHandle } from './run-handle.js';

/** How a tool actor reports its call's outcome. */
type ToolSettle = (event: ToolSettledEvent) => void;

/**
 * Runs one tool call of the run bound to `system`: announce, invoke, announce the result,
 * settle. Each step goes on at once when the one before finished synchronously (subscribers
 * that return nothing, a tool that answers at once, nothing pacing the run), so such a call
 * costs no microtask.
 */
export const runToolCall: ToolCallRunner = (input, settle, system) => {
  const deps = depsOf(system);
  const run = activeRun(deps);
  if (run.state === undefined) {
    // A resumed run's pending calls are spawned by the machine's first step, and XState starts
    // those children before it runs that step's effects: wait for them (the journaled move into
    // executingTools), so that the calls are announced after it, as on every other turn.
    void Promise.resolve().then(() => runToolCall(input, settle, system));
    return;
  }
  run.completions.started(input.index);
  // The tool starts the moment its announcement has reached every subscriber and the reader of
  // `run()`, before anything else runs: a reader that aborts on `tool_call_start` reaches the
  // running tool through its signal. The gate keeps the next call of a batch from being
  // announced (and started) before the reader asks for another event.
  run.announcements.enter((delivered) => {
    void run.emit(AgentEvent.toolCallStart(input.call), () => {
      try {
        invokeTool(deps, run, input, settle);
      } catch (error) {
        run.fail(error);
      } finally {
        delivered();
      }
    });
  });
};

function invokeTool(deps: MachineDeps, run: RunHandle, input: ToolActorInput, settle: ToolSettle): void {
  const { call } = input;
  // The run's own signal, not AbortSignal.any per call (on Node 20 that cost ~16 µs and a
  // WeakRef per call, a fifth of the harness's CPU per turn, see docs/performance.md). A run
  // that stops aborts it (`cancelInFlight`), which is the only way a call in flight is stopped.
  const result = input.withheld
    ? ToolResult.error(TOOLS_WITHHELD_ERROR)
    : deps.session.registry.invokeEager(call.name, call.arguments, {
        callId: call.callId,
        signal: run.controller.signal,
      });
  if (isPromiseLike(result)) result.then((settled) => completeTool(deps, run, input, settled, settle)).catch(run.fail);
  else completeTool(deps, run, input, result, settle);
}

/** Announces a call's result, in the model's order (see CompletionOrder), then reports it to the machine. */
function completeTool(
  deps: MachineDeps,
  run: RunHandle,
  input: ToolActorInput,
  result: ToolResult,
  settle: ToolSettle,
): void {
  run.completions.complete(input.index, () => {
    const announced = run.emit(AgentEvent.toolCallComplete(input.call, result));
    const settleNow = (): void =>
      settle({ type: 'TOOL_SETTLED', index: input.index, result, elapsedMs: deps.now() - run.startedAt });
    if (isDelivered(announced)) {
      settleNow();
      return undefined;
    }
    return announced.then(settleNow);
  });
}
