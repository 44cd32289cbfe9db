import type { ApprovalDecision, Permission, PolicyVerdict } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import { ToolResult } from '../core/tool-result.js';
import type { AgentContext, PendingCalls, ToolBatch } from './agent-machine-types.js';

/** A turn's calls as the machine holds them: the gated order, with what each needs. */
export type GatedCalls = Pick<
  ToolBatch,
  'calls' | 'concurrencySafe' | 'answers' | 'permissions' | 'decisions' | 'rules'
>;

/** The reason a fixed `deny` rule gives. */
export function policyDenial(name: string): ApprovalDecision {
  return { approved: false, reason: `the tool policy denies '${name}'` };
}

/** The decision a verdict makes by itself: a `deny` with its reason (none for `allow` and `ask`). */
export function verdictDecision(verdict: PolicyVerdict): ApprovalDecision | undefined {
  return verdict.permission === 'deny' && verdict.reason !== undefined
    ? { approved: false, reason: verdict.reason }
    : undefined;
}

/** The result a denied call is answered with: `Error: denied: <reason>`. */
export function deniedResult(decision: ApprovalDecision): ToolResult | undefined {
  return decision.approved ? undefined : ToolResult.error(`denied: ${decision.reason}`);
}

/**
 * Puts a turn's calls in the order the machine starts them: calls that need no decision keep
 * their order and come first; calls that `ask` follow, in their order, so the allowed calls of
 * the batch run while those wait. A `deny` rule is decided here. Without permissions (or when
 * every call is allowed) the calls stay as they are.
 */
export function gateCalls(pending: PendingCalls): GatedCalls {
  const { calls, concurrencySafe, permissions } = pending;
  const answers = pending.answers ?? [];
  if (permissions === undefined || permissions.every((permission) => permission === 'allow')) {
    return { calls, concurrencySafe, answers, permissions: [], decisions: [], rules: [] };
  }
  const order = calls.map((_, index) => index);
  const asks = (index: number): boolean => permissions[index] === 'ask';
  const sorted = [...order.filter((index) => !asks(index)), ...order.filter(asks)];
  const decisionOf = (index: number): ApprovalDecision | undefined => {
    if (permissions[index] === 'deny')
      return pending.decisions?.[index] ?? policyDenial((calls[index] as ToolCall).name);
    return permissions[index] === 'ask' ? pending.decisions?.[index] : undefined;
  };
  return {
    calls: sorted.map((index) => calls[index] as ToolCall),
    concurrencySafe: sorted.map((index) => concurrencySafe[index] ?? false),
    answers: answers.length === 0 ? [] : sorted.map((index) => answers[index]),
    permissions: sorted.map((index) => permissions[index] as Permission),
    decisions: sorted.map(decisionOf),
    rules: sorted.map((index) => pending.rules?.[index]),
  };
}

/** Whether call `index` waits for a decision (it asks, and nobody decided yet). */
export function awaitsDecision(tools: Pick<ToolBatch, 'permissions' | 'decisions'>, index: number): boolean {
  return tools.permissions[index] === 'ask' && tools.decisions[index] === undefined;
}

/** Where the batch `[from, to)` must stop: before the first call that waits for a decision. */
export function gateEnd(tools: Pick<ToolBatch, 'permissions' | 'decisions'>, from: number, to: number): number {
  if (tools.permissions.length === 0) return to;
  for (let index = from; index < to; index++) if (awaitsDecision(tools, index)) return index;
  return to;
}

/** What a call's actor answers with instead of running it: an in-doubt answer, or a denial. */
export function answerFor(tools: Pick<ToolBatch, 'answers' | 'decisions'>, index: number): ToolResult | undefined {
  const answer = tools.answers[index];
  if (answer !== undefined) return answer;
  const decision = tools.decisions[index];
  return decision === undefined ? undefined : deniedResult(decision);
}

/** The calls of the turn still waiting for a decision, in the model's order. */
export function waitingCalls(tools: Pick<ToolBatch, 'calls' | 'permissions' | 'decisions'>): ToolCall[] {
  return tools.calls.filter((_, index) => awaitsDecision(tools, index));
}

/** The rules that asked about the calls {@link waitingCalls} finds, in the same order. */
export function waitingRules(
  tools: Pick<ToolBatch, 'calls' | 'permissions' | 'decisions' | 'rules'>,
): (string | undefined)[] {
  const rules: (string | undefined)[] = [];
  for (let index = 0; index < tools.calls.length; index++)
    if (awaitsDecision(tools, index)) rules.push(tools.rules[index]);
  return rules;
}

/** Index of the waiting call with this id, or -1. */
export function waitingIndex(tools: ToolBatch, callId: string): number {
  if (tools.permissions.length === 0) return -1;
  const index = tools.calls.findIndex((call) => call.callId === callId);
  return index >= 0 && awaitsDecision(tools, index) ? index : -1;
}

/**
 * The machine waits only for a person: nothing runs, calls remain, and the next one to start
 * waits for a decision.
 */
export function blockedOnApproval(context: AgentContext): boolean {
  return (
    context.tools.running === 0 &&
    context.aborting === undefined &&
    context.tools.nextToStart < context.tools.calls.length &&
    awaitsDecision(context.tools, context.tools.nextToStart)
  );
}
