import { contentText } from '../core/content-parts.js';
import { guardrailStopMessage, stopsRun } from '../core/guardrail.js';
import type { ToolCall } from '../core/messages.js';
import { ToolResult, toolMessageContent } from '../core/tool-result.js';
import { addUsage } from '../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  GuardrailCheckedEvent,
  StopInfo,
  ToolSettledEvent,
} from './agent-machine-types.js';
import { machineSetup } from './machine-setup.js';

/** The verdict that stops the run, if any (the last one: checks stop at the first that stops). */
function stoppingVerdict(event: GuardrailCheckedEvent) {
  return event.verdicts.find(stopsRun);
}

/** The stop a checked event brings: reason `guardrail`, naming the guardrail, or undefined when all passed. */
export function guardrailStop(event: AgentMachineEvent): StopInfo | undefined {
  if (event.type !== 'GUARDRAIL_CHECKED') return undefined;
  const verdict = stoppingVerdict(event);
  return verdict === undefined ? undefined : { reason: 'guardrail', message: guardrailStopMessage(verdict) };
}

/**
 * Starts the input's check beside the request in flight, once (`startTurn` calls this when it
 * requests): the request's answer is held until the verdict.
 */
export function inputCheckStarts(context: AgentContext): boolean {
  return context.guardrails.inputPending && !context.guardrails.inputChecking;
}

/** A model turn that came before the input's verdict: held (the machine decides on it after the verdict). */
export const holdTurn = machineSetup.assign(({ context, event }) => {
  if (event.type !== 'MODEL_TURN') return {};
  return { guardrails: { ...context.guardrails, heldTurn: event.turn } };
});

/** The verdicts are journaled (and their model usage), and that usage counts in the budgets. */
function record(context: AgentContext, event: GuardrailCheckedEvent) {
  return {
    action: { type: 'recordGuardrails', params: { verdicts: event.verdicts, usage: event.usage } } as const,
    usage: event.usage.totalTokens > 0 ? addUsage(context.usage, event.usage) : context.usage,
  };
}

/** The input passed: journal the verdicts, and decide on the turn held meanwhile (raised again). */
export const passInput = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'GUARDRAIL_CHECKED') return;
  const { action, usage } = record(context, event);
  enqueue(action);
  const held = context.guardrails.heldTurn;
  enqueue.assign({
    usage,
    guardrails: { ...context.guardrails, inputPending: false, inputChecking: false, heldTurn: undefined },
  });
  if (held !== undefined) enqueue.raise({ type: 'MODEL_TURN', turn: held });
});

/** A verdict stopped the run (input or output): journal the verdicts and keep the stop. */
export const stopOnGuardrail = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'GUARDRAIL_CHECKED') return;
  const { action, usage } = record(context, event);
  enqueue(action);
  enqueue.assign({ usage, stop: guardrailStop(event) });
});

/** Asks for the final answer's check (entering `guardingOutput`). */
export const checkOutput = machineSetup.enqueueActions(({ context, enqueue }) => {
  enqueue({ type: 'checkGuardrails', params: { stage: 'output', value: context.response ?? '', turn: context.turns } });
});

/**
 * The answer passed: journal the verdicts and keep the answer, replaced if a guardrail replaced
 * it (a structured `output` parsed from the original is then dropped: it is not what passed).
 */
export const passOutput = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'GUARDRAIL_CHECKED') return;
  const { action, usage } = record(context, event);
  enqueue(action);
  const replaced = event.value !== context.response;
  enqueue.assign(replaced ? { usage, response: contentText(event.value), output: undefined } : { usage });
});

/** Asks for a settled result's check: it is journaled, reported and counted only once it passed. */
export const checkResult = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'TOOL_SETTLED') return;
  const call = context.tools.calls[event.index] as ToolCall;
  const value = toolMessageContent(event.result);
  enqueue({
    type: 'checkGuardrails',
    params: { stage: 'toolResult', value, turn: context.turns, call, settled: event },
  });
  const { guardrails } = context;
  enqueue.assign({ guardrails: { ...guardrails, checking: [...guardrails.checking, event.index] } });
});

/** The result a check leaves: the tool's (perhaps replaced, keeping success or error), or the withheld error. */
function checkedResult(event: GuardrailCheckedEvent, settled: ToolSettledEvent): ToolResult {
  const verdict = stoppingVerdict(event);
  if (verdict !== undefined) {
    return ToolResult.error(`the result was withheld by guardrail '${verdict.guardrail}': ${verdict.reason ?? ''}`);
  }
  const original = toolMessageContent(settled.result);
  if (event.value === original) return settled.result;
  if (settled.result.success) {
    return typeof event.value === 'string' ? ToolResult.success(event.value) : ToolResult.content(event.value);
  }
  const text = contentText(event.value);
  return ToolResult.error(text.startsWith('Error: ') ? text.slice('Error: '.length) : text);
}

/**
 * A result's verdicts are in: journal them, then settle the call with the result that passed
 * (raised again as a checked `TOOL_SETTLED`, so it takes the one settling path). A tripwire
 * stops the run first (`ABORT`, reason `guardrail`: running calls are cancelled), and the call
 * is answered with an error that says its result was withheld.
 */
export const settleCheckedResult = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'GUARDRAIL_CHECKED' || event.settled === undefined) return;
  const { action, usage } = record(context, event);
  enqueue(action);
  const { guardrails } = context;
  const index = event.settled.index;
  enqueue.assign({ usage, guardrails: { ...guardrails, checking: guardrails.checking.filter((i) => i !== index) } });
  const stop = guardrailStop(event);
  if (stop !== undefined) enqueue.raise({ type: 'ABORT', reason: 'guardrail', message: stop.message });
  const settled = event.settled;
  enqueue.raise({ ...settled, result: checkedResult(event, settled), checked: true });
});
