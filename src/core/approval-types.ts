import type { JsonObject, ToolCall } from './messages.js';

/** What the policy says about a tool call: run it, ask a person first, or refuse it. */
export type Permission = 'allow' | 'ask' | 'deny';

/** The permissions a policy may give. */
export const PERMISSIONS: readonly Permission[] = ['allow', 'ask', 'deny'];

/** What a policy function answers about one call: a permission, or a denial with its reason. */
export type PolicyAnswer = Permission | { readonly deny: string };

/** A decision of this session on an earlier call, as a policy function sees it in {@link PolicyContext}. */
export interface PolicyDecisionRecord {
  readonly callId: string;
  /** The tool the call named. */
  readonly name: string;
  readonly approved: boolean;
  /** The rule that decided (a policy key, a function, the fallback); absent for a person's decision. */
  readonly rule?: string;
}

/** What a policy function knows besides the call. */
export interface PolicyContext {
  /** The session's id in its store (undefined for a session without one). */
  readonly sessionId: string | undefined;
  /** The folder the workspace tools resolve paths against (`Config.cwd`). */
  readonly cwd: string;
  /** The number of the model turn that asked for the call (1 for the session's first turn). */
  readonly turn: number;
  /** This session's earlier decisions (a person's and the policy's), oldest first. */
  readonly decisions: readonly PolicyDecisionRecord[];
  /** Aborted when the run stops: an async policy may pass it on. */
  readonly signal: AbortSignal;
}

/**
 * A permission that looks at the call: sync or async. A policy that throws or rejects denies
 * the call, with the error as the reason; it never allows it.
 */
export type PolicyFunction = (call: ToolCall, ctx: PolicyContext) => PolicyAnswer | Promise<PolicyAnswer>;

/** One rule of a policy: a fixed permission or a function of the call. */
export type PermissionRule = Permission | PolicyFunction;

/** What the policy said about one call, and the rule that said it. */
export interface PolicyVerdict {
  readonly permission: Permission;
  /** The rule (`shell`, `kind:write`, `shell: noRm`, `fallback`); absent when no rule covers the call. */
  readonly rule?: string;
  /** Why it is denied, for `deny`. */
  readonly reason?: string;
  /** A function decided it: the verdict is journaled, and a resumed run keeps it. */
  readonly computed: boolean;
}

/** A person's (or a pre-given, or a policy function's) decision on one call. */
export type ApprovalDecision =
  | {
      readonly approved: true;
      /** The rule that allowed it, when a policy function did (absent for a person's decision). */
      readonly rule?: string;
      /** The arguments as a person edited them; the call runs with these. */
      readonly arguments?: JsonObject;
    }
  | {
      readonly approved: false;
      /** Why, for the call's `Error: denied: <reason>` result. */
      readonly reason: string;
      /** The rule that denied it, when a policy function did (absent for a person's decision). */
      readonly rule?: string;
    };

/** `agent.approve(callId)`: the call may run (with `arguments`, edited ones). */
export interface ApproveEvent {
  readonly type: 'APPROVE';
  readonly callId: string;
  /** Edited arguments, already checked against the tool's schema. */
  readonly arguments?: JsonObject;
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
  /** Per call: the rule that asked (a policy key, a function), when known. */
  readonly rules: readonly (string | undefined)[];
}

/** Parameters of the `recordDecision` effect. */
export interface DecisionParams {
  readonly call: ToolCall;
  readonly decision: ApprovalDecision;
}
