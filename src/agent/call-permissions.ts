import { allowsEverything, type PermissionPolicy, ruleFor } from '../config/permission-policy.js';
import type { PolicyContext, PolicyVerdict } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ambiguousRule } from './policy-keys.js';
import { verdictOf } from './policy-verdicts.js';

/**
 * What the policy says about each call, and which rule said it, for the machine; `undefined`
 * when the policy allows everything (no per-call work on the hot path). Looked up when a turn
 * arrives (policy functions are called then, in the calls' order, all at once) and, for calls
 * without a recorded verdict, when a run resumes. A promise only when a function is async.
 * With `topLevel` (a run that is not a sub-agent's), a plain rule that is ambiguous for the
 * call's tool ({@link ambiguousRule}) denies it.
 */
export function callVerdicts(
  policy: PermissionPolicy,
  registry: ToolRegistry,
  calls: readonly ToolCall[],
  ctx: () => PolicyContext,
  options: { readonly topLevel?: boolean } = {},
): PolicyVerdict[] | Promise<PolicyVerdict[]> | undefined {
  if (calls.length === 0 || allowsEverything(policy)) return undefined;
  let context: PolicyContext | undefined;
  const once = (): PolicyContext => {
    context ??= ctx();
    return context;
  };
  const verdicts = calls.map((call) => {
    const kind = registry.get(call.name)?.kind;
    // The run's own policy (a sub-agent's is composed per tool name, so never ambiguous): a tool
    // named like a kind that joined mid-run is refused, as the run would have been at its start.
    const ambiguous = options.topLevel === true ? ambiguousRule(policy, call.name, kind) : undefined;
    if (ambiguous !== undefined)
      return { permission: 'deny' as const, rule: call.name, reason: ambiguous, computed: false };
    return verdictOf(ruleFor(policy, call.name, kind), call, once);
  });
  return verdicts.some(isPromiseLike) ? Promise.all(verdicts) : (verdicts as PolicyVerdict[]);
}
