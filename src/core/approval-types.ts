import type { ToolCall } from './messages.js';

/** What the policy says about a tool call: run it, ask a person first, or refuse it. */
export type Permission = 'allow' | 'ask' | 'deny';

/** The permissions a policy may give. */
export const PERMISSIONS: readonly Permission[] = ['allow', 'ask', 'deny'];

/** A person's (or a pre-given) decision on one call that asked for approval. */
export type ApprovalDecision =
  | { readonly approved: true }
  | {
      readonly approved: false;
      /** Why, for the call's `Error: denied: <reason>` result. */
      readonly reason: string;
    };

/** `agent.approve(callId)`: the call may run. */
export interface ApproveEvent {
  readonly type: 'APPROVE';
  readonly callId: string;
}

/** `agent.deny(callId, reason)`: the call is answered `Error: denied: <reason>` without running. */
export interface DenyEvent {
  readonly type: 'DENY';
  readonly callId: string;
  readonly reason: string;
}

/** `agent.suspend()`: end a run that waits for approval; undecided calls stay pending. */
export interface SuspendEvent {
  readonly type: 'SUSPEND';
}

/** Parameters of the `requestApproval` effect. */
export interface ApprovalRequestParams {
  /** The calls that wait for a decision, in the model's order. */
  readonly calls: readonly ToolCall[];
}

/** Parameters of the `recordDecision` effect. */
export interface DecisionParams {
  readonly call: ToolCall;
  readonly decision: ApprovalDecision;
}
