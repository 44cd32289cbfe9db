import type { ApprovalDecision } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import { advanceTools } from './advance-tools.js';
import { waitingCalls, waitingIndex, waitingRules } from './approval-gate.js';
import { machineSetup } from './machine-setup.js';
import { progressOf } from './tool-batch.js';

/**
 * The turn waits only for decisions (the calls that needed none have run): ask for a decision on
 * every call that waits, once per turn. Asking earlier let a consumer that awaits the request (a
 * prompt) hold back the allowed calls until a person answered.
 */
export const requestApprovals = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (context.tools.asked) return;
  const calls = waitingCalls(context.tools);
  if (calls.length > 0) enqueue({ type: 'requestApproval', params: { calls, rules: waitingRules(context.tools) } });
  enqueue.assign({ tools: { ...context.tools, asked: true } });
});

/** `APPROVE` / `DENY` for a waiting call: journal the decision, then start what the schedule now allows. */
export const decide = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'APPROVE' && event.type !== 'DENY') return;
  const index = waitingIndex(context.tools, event.callId);
  if (index < 0) return;
  const edited = event.type === 'APPROVE' ? event.arguments : undefined;
  const decision: ApprovalDecision =
    event.type === 'DENY'
      ? { approved: false, reason: event.reason }
      : edited === undefined
        ? { approved: true }
        : { approved: true, arguments: edited };
  const call = context.tools.calls[index] as ToolCall;
  enqueue({ type: 'recordDecision', params: { call, decision } });
  const decisions = context.tools.decisions.slice();
  decisions[index] = decision;
  let { calls } = context.tools;
  if (edited !== undefined) {
    // The call runs with the arguments as the person edited them.
    const copy = calls.slice();
    copy[index] = { ...call, arguments: edited };
    calls = copy;
  }
  advanceTools({ ...context, tools: { ...context.tools, calls, decisions } }, progressOf(context), enqueue, undefined);
});

/** `SUSPEND`: the run ends waiting; its undecided calls stay unanswered, for a later resume. */
export const suspend = machineSetup.assign(({ context }) => {
  const ids = waitingCalls(context.tools).map((call) => `'${call.callId}'`);
  return {
    stop: {
      reason: 'suspended' as const,
      message: `suspended while call ${ids.join(', ')} waited for approval; resume the session to decide`,
    },
  };
});
