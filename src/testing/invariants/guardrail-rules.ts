import type { GuardrailSettings } from '../../config/guardrail-options.js';
import { guardrailStopMessage, stopsRun } from '../../core/guardrail.js';
import type { JournalRun } from './journal-runs.js';
import { type LoopViolation, violation } from './loop-violation.js';

/**
 * Guardrail verdicts come before what they let through, within each run: a tool result after its
 * call's `toolResult` verdict (for a call that ran, when the config has such guardrails), the
 * final answer after the answer's verdict, the first use of a model turn (its assistant message
 * or answer) after the input's verdict; a verdict never follows what it checked; and a verdict
 * that stops the run (a tripwire, a failed check) is followed by no request, result of another
 * verdict's call, or answer, and the run ends `guardrail` (or with the abort that came first).
 */
export function guardrailOrder(run: JournalRun, guardrails: GuardrailSettings): LoopViolation[] {
  const problems: LoopViolation[] = [];
  const fail = (message: string) => problems.push(violation('guardrails', message));
  const started = new Set<string>();
  const checkedCalls = new Set<string>();
  const resulted = new Set<string>();
  let outputChecked = false;
  let inputChecked = false;
  let stopped: string | undefined;
  run.entries.forEach((entry, i) => {
    const at = run.offset + i;
    if (stopped !== undefined && (entry.type === 'turn_start' || entry.type === 'agent_end')) {
      fail(`entry ${at} (${entry.type}) follows a verdict that stopped the run (${stopped})`);
    }
    switch (entry.type) {
      case 'turn_start':
        outputChecked = false;
        return;
      case 'tool_started':
        started.add(entry.callId);
        return;
      case 'guardrail':
        if (entry.stage === 'toolResult' && entry.callId !== undefined) {
          if (resulted.has(entry.callId)) fail(`entry ${at}: a verdict on '${entry.callId}' after its result was used`);
          checkedCalls.add(entry.callId);
        }
        if (entry.stage === 'output') outputChecked = true;
        if (entry.stage === 'input') inputChecked = true;
        if (stopsRun(entry)) stopped ??= guardrailStopMessage(entry);
        return;
      case 'tool_result':
        resulted.add(entry.callId);
        if (guardrails.toolResult.length > 0 && started.has(entry.callId) && !checkedCalls.has(entry.callId)) {
          fail(`entry ${at}: the result of '${entry.callId}' is journaled before its guardrails' verdict`);
        }
        return;
      case 'assistant_message':
      case 'agent_end':
        if (guardrails.input.length > 0 && !inputChecked && isUserRun(run)) {
          fail(`entry ${at} (${entry.type}) uses a model turn before the input's verdict`);
        }
        if (entry.type === 'agent_end' && guardrails.output.length > 0 && !outputChecked) {
          fail(`entry ${at}: the final answer is journaled before its output guardrails' verdict`);
        }
        return;
      case 'agent_error':
        if (stopped !== undefined && entry.reason !== 'guardrail' && !ABORTS.has(entry.reason)) {
          fail(`entry ${at}: the run ended '${entry.reason}' after a verdict stopped it (${stopped})`);
        }
        return;
      default:
        return;
    }
  });
  return problems;
}

/** Stops that may come before a tripwire's and win (the run was already stopping). */
const ABORTS: ReadonlySet<string> = new Set(['aborted', 'time_budget', 'store_error', 'internal_error']);

/** A run that starts with the user's message (a resumed run checked its input before). */
function isUserRun(run: JournalRun): boolean {
  const first = run.entries[0];
  return first?.type === 'user_message' && first.author === undefined;
}
