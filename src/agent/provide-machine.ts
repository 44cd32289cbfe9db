import { AgentEvent } from '../core/agent-event.js';
import { agentMachine } from '../machines/agent-machine.js';
import type { AgentContext } from '../machines/agent-machine-types.js';
import { toolActorLogic } from '../machines/tool-actor-logic.js';
import type { Session } from '../session/session.js';
import { ToolResult, toolMessageContent } from '../tools/tool-result.js';
import { softLimitMessage } from './budget-message.js';
import { requestModel } from './request-model.js';
import { activeRun, depsOf } from './run-handle.js';
import { runToolCall } from './run-tool-call.js';

function recordObservations(session: Session, context: AgentContext): void {
  context.calls.forEach((call, i) => {
    const result = context.results[i] ?? ToolResult.error('no result was recorded for this call');
    session.addToolResult({ callId: call.callId, content: toolMessageContent(result) });
  });
}

/**
 * The agent machine with the agent's actors and effects provided, made once; each run's actor
 * is bound to its agent's session and bus with `bindAgentRun` (run-handle.ts).
 */
export function provideAgentMachine() {
  return agentMachine.provide({
    actors: { runTool: toolActorLogic(runToolCall) },
    actions: {
      recordTransition: ({ event, system }, { to }) => {
        const deps = depsOf(system);
        const run = activeRun(deps);
        const from = run.state;
        run.state = to;
        if (from !== undefined) deps.bus.record(deps.session.recordTransition(from, to, event.type));
      },
      requestModel: ({ self, system }, { toolsWithheld }) => requestModel(self, system, toolsWithheld),
      recordModelTurn: ({ system }, { turn }) => {
        const { session } = depsOf(system);
        session.trackUsage(turn.usage);
        if (turn.toolCalls.length > 0) session.addAssistantMessage(turn.text, turn.toolCalls);
      },
      recordObservations: ({ context, system }) => recordObservations(depsOf(system).session, context),
      warnBudget: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const hit = context.budget.softLimit(context.turns, context.usage, context.elapsedMs);
        if (hit === null) return;
        const message = softLimitMessage(hit);
        session.recordBudgetWarning(hit.budget, hit.used);
        session.addHarnessMessage(message);
        const softLimitRatio = context.budget.softLimitRatio ?? 1;
        void activeRun(deps).emit(
          AgentEvent.budgetWarning({ budget: hit.budget, used: hit.used, softLimitRatio, message }),
        );
      },
      cancelInFlight: ({ context, system }) => {
        const run = activeRun(depsOf(system));
        if (!run.controller.signal.aborted)
          run.controller.abort(context.stop?.message ?? context.aborting?.message ?? 'stopped');
      },
      finish: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const response = context.response ?? '';
        session.recordEnd(response);
        void run.emit(AgentEvent.agentEnd(response, session.totalUsage, session.turnCount));
      },
      fail: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const stop = context.stop ?? { reason: 'internal_error' as const, message: 'the run stopped without a reason' };
        session.recordError(stop.reason, stop.message);
        void run.emit(AgentEvent.agentError(stop.reason, stop.message));
      },
    },
  });
}

/** The type of {@link provideAgentMachine}'s result. */
export type ProvidedAgentMachine = ReturnType<typeof provideAgentMachine>;

/** The provided machine every `Agent` runs. */
export const agentRunMachine: ProvidedAgentMachine = provideAgentMachine();
