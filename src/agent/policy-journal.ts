import { AgentEvent } from '../core/agent-event.js';
import type { ApprovalDecision, PolicyVerdict } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import type { Session } from '../session/session.js';

/** The `tool_approval_decision` event of a decision, with its rule and edited arguments. */
export function decisionEvent(call: ToolCall, decision: ApprovalDecision): AgentEvent<'tool_approval_decision'> {
  if (decision.approved) {
    const { rule, arguments: edited } = decision;
    return rule === undefined && edited === undefined
      ? AgentEvent.toolApprovalDecision(call, true)
      : AgentEvent.toolApprovalDecision(call, true, undefined, {
          ...(rule === undefined ? {} : { rule }),
          ...(edited === undefined ? {} : { arguments: edited }),
        });
  }
  return decision.rule === undefined
    ? AgentEvent.toolApprovalDecision(call, false, decision.reason)
    : AgentEvent.toolApprovalDecision(call, false, decision.reason, { rule: decision.rule });
}

/**
 * Journals what policy functions decided about a turn's calls (`allow` or `deny`, with the
 * rule), right after the turn: a resumed run keeps these and never calls the function again.
 * Fixed rules are not journaled (the config says them again); an `ask` is journaled when its
 * approval is requested, with its rule. Returns the events to report.
 */
export function recordVerdicts(
  session: Session,
  calls: readonly ToolCall[],
  verdicts: readonly PolicyVerdict[],
): AgentEvent<'tool_approval_decision'>[] {
  const events: AgentEvent<'tool_approval_decision'>[] = [];
  verdicts.forEach((verdict, index) => {
    const call = calls[index];
    if (!verdict.computed || verdict.permission === 'ask' || call === undefined) return;
    const rule = verdict.rule ?? 'fallback';
    const decision: ApprovalDecision =
      verdict.permission === 'allow'
        ? { approved: true, rule }
        : { approved: false, reason: verdict.reason ?? `the tool policy (${rule}) denies '${call.name}'`, rule };
    session.recordApprovalDecision(call.callId, decision);
    events.push(decisionEvent(call, decision));
  });
  return events;
}
