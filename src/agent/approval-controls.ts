import type { Actor, AnyActorLogic } from 'xstate';
import { allowsEverything, ruleFor } from '../config/permission-policy.js';
import { HarnessError } from '../core/errors.js';
import type { ToolCall } from '../core/messages.js';
import type { AgentContext, ApprovalDecision, PendingCalls, Permission } from '../machines/agent-machine-types.js';
import { waitingCalls } from '../machines/approval-gate.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ruleLabel } from './policy-verdicts.js';

/** Decisions given to `resume({ approvals })`: callId → `approve` or `deny`. */
export type ApprovalMap = Readonly<Record<string, 'approve' | 'deny'>>;

/** The reason a denial without one gives. */
export const DEFAULT_DENIAL = 'the user denied this call';

function contextOf(actor: Actor<AnyActorLogic> | undefined): AgentContext | undefined {
  const snapshot = actor?.getSnapshot() as { status: string; context: AgentContext } | undefined;
  return snapshot?.status === 'active' ? snapshot.context : undefined;
}

/** The calls of a run that wait for a decision, in the model's order (none between runs). */
export function callsAwaitingApproval(actor: Actor<AnyActorLogic> | undefined): ToolCall[] {
  const context = contextOf(actor);
  return context === undefined ? [] : waitingCalls(context.tools);
}

/**
 * Sends one decision per call id to the run's machine, which takes only those for calls that
 * wait; returns the ids it took.
 */
export function sendDecisions(
  actor: Actor<AnyActorLogic> | undefined,
  callIds: string | readonly string[],
  decision: ApprovalDecision,
): string[] {
  const ids = typeof callIds === 'string' ? [callIds] : callIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw new HarnessError('invalid_argument', 'approve()/deny() take a call id or an array of call ids');
  }
  const taken: string[] = [];
  for (const callId of ids) {
    const before = contextOf(actor)?.tools.decisions;
    if (before === undefined || actor === undefined) break;
    if (!decision.approved) actor.send({ type: 'DENY', callId, reason: decision.reason });
    else if (decision.arguments === undefined) actor.send({ type: 'APPROVE', callId });
    else actor.send({ type: 'APPROVE', callId, arguments: decision.arguments });
    if (contextOf(actor)?.tools.decisions !== before) taken.push(callId);
  }
  return taken;
}

/**
 * Checks `resume({ approvals })`: every key a pending call's id, every value `approve` or `deny`,
 * and none that would change a decision already recorded (`recorded` looks one up): a recorded
 * decision is final.
 */
export function checkApprovals(
  approvals: unknown,
  pending: readonly ToolCall[],
  recorded: (callId: string) => ApprovalDecision | undefined = () => undefined,
): ApprovalMap {
  if (approvals === undefined) return {};
  if (typeof approvals !== 'object' || approvals === null || Array.isArray(approvals)) {
    throw new HarnessError('invalid_argument', "resume({ approvals }) takes an object: callId → 'approve' | 'deny'");
  }
  for (const [callId, value] of Object.entries(approvals)) {
    if (value !== 'approve' && value !== 'deny') {
      throw new HarnessError(
        'invalid_argument',
        `approvals.${callId} must be 'approve' or 'deny', got ${JSON.stringify(value)}`,
      );
    }
    if (!pending.some((call) => call.callId === callId)) {
      const ids = pending.map((call) => call.callId).join(', ') || 'none';
      throw new HarnessError(
        'invalid_argument',
        `approvals names call '${callId}', which is not pending (pending: ${ids})`,
      );
    }
    const decided = recorded(callId);
    if (decided !== undefined && decided.approved !== (value === 'approve')) {
      const was = decided.approved ? 'approved' : `denied (${decided.reason})`;
      throw new HarnessError(
        'invalid_argument',
        `approvals.${callId} is '${value}', but call '${callId}' was already ${was}: a recorded decision is final`,
      );
    }
  }
  return approvals as ApprovalMap;
}

/**
 * What the policy of now says about a pending call of a resumed run, without calling any policy
 * function: a function rule asks (a person decides) rather than being evaluated a second time.
 */
function permissionNow(
  session: Session,
  tools: ToolRegistry,
  call: ToolCall,
): { permission: Permission; rule?: string } {
  const found = ruleFor(session.config.permissions, call.name, tools.get(call.name)?.kind);
  if (found === undefined) return { permission: 'allow' };
  const rule = ruleLabel(found);
  return { permission: typeof found.rule === 'function' ? 'ask' : found.rule, rule };
}

/**
 * The gate's input for a resumed run's pending calls, run with `tools` (the agent in charge's).
 * A decision already recorded (journaled before a suspend, a policy function's verdict) is
 * final: the call keeps it whatever the policy says now. Every other call is looked up in the
 * fixed rules of now (a function rule asks instead of running again), and a decision passed to
 * `resume` for one that asks is journaled here, before the run starts.
 */
export function gatePending(
  session: Session,
  tools: ToolRegistry,
  pending: PendingCalls,
  approvals: ApprovalMap,
): PendingCalls {
  const recorded = pending.calls.map((call) => session.approvalDecision(call.callId));
  const now = allowsEverything(session.config.permissions)
    ? undefined
    : pending.calls.map((call) => permissionNow(session, tools, call));
  if (now === undefined && recorded.every((decision) => decision === undefined)) return pending;
  // A recorded decision gates its call as an `ask` that was answered.
  const permissions = pending.calls.map(
    (_, index): Permission => (recorded[index] !== undefined ? 'ask' : (now?.[index]?.permission ?? 'allow')),
  );
  const rules = pending.calls.map((_, index) => recorded[index]?.rule ?? now?.[index]?.rule);
  const decisions = pending.calls.map((call, index): ApprovalDecision | undefined => {
    const decided = recorded[index];
    if (decided !== undefined || permissions[index] !== 'ask') return decided;
    const given = approvals[call.callId];
    if (given === undefined) return undefined;
    const decision: ApprovalDecision =
      given === 'approve' ? { approved: true } : { approved: false, reason: DEFAULT_DENIAL };
    session.recordApprovalDecision(call.callId, decision);
    return decision;
  });
  return { ...pending, permissions, decisions, rules };
}
