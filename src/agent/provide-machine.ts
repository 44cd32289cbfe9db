import { AgentEvent } from '../core/agent-event.js';
import type { JsonValue, ToolCall } from '../core/messages.js';
import { type ToolResult, toolMessageContent } from '../core/tool-result.js';
import { agentMachine } from '../machines/agent-machine.js';
import type { ReportParams } from '../machines/agent-machine-types.js';
import { softLimitMessage } from '../machines/budget-message.js';
import { toolActorLogic } from '../machines/tool-actor-logic.js';
import { checkGuardrails } from './check-guardrails-effect.js';
import { compactContext } from './compact-context.js';
import { outputRetryMessage } from './output-check.js';
import { decisionEvent, recordVerdicts } from './policy-journal.js';
import { requestModel } from './request-model.js';
import { activeRun, depsOf, type MachineDeps } from './run-handle.js';
import { runToolCall } from './run-tool-call.js';

/** Emits `tool_call_complete` for calls `from`..`to` (announcing first any call that never started). */
function reportResults(deps: MachineDeps, { calls, results, from, to }: ReportParams): void {
  const run = activeRun(deps);
  for (let index = from; index < to; index++) {
    const call = calls[index] as ToolCall;
    // A call answered without running (tools withheld, aborted before it started, in doubt on
    // resume) was not announced in this run: announce it now, so every call has both events.
    if (!run.announced.has(call.callId)) run.post(AgentEvent.toolCallStart(call));
    run.post(AgentEvent.toolCallComplete(call, results[index] as ToolResult));
  }
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
        if (from !== undefined) deps.session.recordTransition(from, to, event.type);
      },
      requestModel: ({ self, system }, { toolsWithheld }) => requestModel(self, system, toolsWithheld),
      recordModelTurn: ({ system }, { turn }) => {
        const deps = depsOf(system);
        const { session } = deps;
        session.trackUsage(turn.usage, turn.model);
        if (turn.toolCalls.length > 0) session.addAssistantMessage(turn.text, turn.toolCalls, turn.reasoning);
        if (turn.verdicts === undefined) return;
        const run = activeRun(deps);
        for (const event of recordVerdicts(session, turn.toolCalls, turn.verdicts)) run.post(event);
      },
      recordResult: ({ system }, { call, result, usage }) => {
        const { session } = depsOf(system);
        if (usage === undefined) session.addToolResult({ callId: call.callId, content: toolMessageContent(result) });
        else session.addChildToolResult(call.callId, toolMessageContent(result), usage);
      },
      recordHandoff: ({ system }, { from, to, instructions }) =>
        depsOf(system).session.recordHandoff(from, to, instructions),
      reportResults: ({ system }, params) => reportResults(depsOf(system), params),
      requestApproval: ({ system }, { calls, rules }) => {
        const deps = depsOf(system);
        const run = activeRun(deps);
        calls.forEach((call, index) => {
          const rule = rules[index];
          deps.session.recordApprovalRequest(call.callId, rule);
          run.post(AgentEvent.toolApprovalRequest(call, undefined, rule));
        });
      },
      recordDecision: ({ system }, { call, decision }) => {
        const deps = depsOf(system);
        deps.session.recordApprovalDecision(call.callId, decision);
        activeRun(deps).post(decisionEvent(call, decision));
      },
      rejectOutput: ({ system }, { turn, problem }) => {
        const { session } = depsOf(system);
        session.trackUsage(turn.usage, turn.model);
        session.addAssistantMessage(turn.text, [], turn.reasoning);
        session.addHarnessMessage(outputRetryMessage(problem));
      },
      compactContext: ({ self, system }, params) => compactContext(self, system, params),
      checkGuardrails: ({ self, system }, params) => checkGuardrails(self, system, params),
      recordGuardrails: ({ system }, { verdicts, usage }) => {
        const { session } = depsOf(system);
        // The judges' usage first: the verdicts are what it paid for.
        if (usage.totalTokens > 0) session.trackUsage(usage);
        for (const verdict of verdicts) session.recordGuardrail(verdict);
      },
      recordCompaction: ({ system }, { event }) => {
        const { session } = depsOf(system);
        if (event.compaction === undefined) return;
        // The summary request's usage first: the compaction entry is what it paid for.
        if (event.usage.totalTokens > 0) session.trackUsage(event.usage, event.model);
        session.recordCompaction(event.compaction);
      },
      warnBudget: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const hit = context.limits.budget.softLimit(context.turns, context.usage, context.elapsedMs);
        if (hit === null) return;
        const message = softLimitMessage(hit);
        session.recordBudgetWarning(hit.budget, hit.used);
        session.addHarnessMessage(message);
        const softLimitRatio = context.limits.budget.softLimitRatio ?? 1;
        activeRun(deps).post(AgentEvent.budgetWarning({ budget: hit.budget, used: hit.used, softLimitRatio, message }));
      },
      stopping: ({ context, event, system }) => {
        const deps = depsOf(system);
        // A stopping run's guardrail checks stop too (a slow one must not hold the run).
        const why =
          context.stop?.message ?? context.aborting?.message ?? (event.type === 'ABORT' ? event.message : 'stopped');
        activeRun(deps).guardrailAbort.abort(why);
        deps.bus.hurry();
      },
      cancelInFlight: ({ context, system }) => {
        const run = activeRun(depsOf(system));
        const why = context.stop?.message ?? context.aborting?.message ?? 'stopped';
        run.modelAbort.abort(why);
        run.guardrailAbort.abort(why);
      },
      finish: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const response = context.response ?? '';
        const output = context.output as JsonValue | undefined;
        session.recordEnd(response, output, run.lastReasoning);
        const end = { response, usage: session.totalUsage, turnCount: session.turnCount };
        run.post(AgentEvent.agentEnd(output === undefined ? end : { ...end, output }));
        deps.bus.hurry(); // as for an error: a stuck subscriber must not keep the run from ending
      },
      fail: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const stop = context.stop ?? { reason: 'internal_error' as const, message: 'the run stopped without a reason' };
        session.recordError(stop.reason, stop.message);
        run.post(AgentEvent.agentError(stop.reason, stop.message));
        deps.bus.hurry(); // the end itself must not wait on a stuck subscriber either
      },
    },
  });
}

/** The type of {@link provideAgentMachine}'s result. */
export type ProvidedAgentMachine = ReturnType<typeof provideAgentMachine>;

/** The provided machine every `Agent` runs. */
export const agentRunMachine: ProvidedAgentMachine = provideAgentMachine();
