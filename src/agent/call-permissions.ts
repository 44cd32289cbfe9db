import { allowsEverything, type PermissionPolicy, permissionFor } from '../config/permission-policy.js';
import type { Permission } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import type { ToolRegistry } from '../tools/registry.js';

/**
 * What the policy says about each call, for the machine; `undefined` when the policy allows
 * everything (no per-call work on the hot path). Looked up when a turn arrives and again when a
 * run resumes, so a resumed run is gated by the policy of now.
 */
export function callPermissions(
  policy: PermissionPolicy,
  registry: ToolRegistry,
  calls: readonly ToolCall[],
): Permission[] | undefined {
  if (calls.length === 0 || allowsEverything(policy)) return undefined;
  return calls.map((call) => permissionFor(policy, call.name, registry.get(call.name)?.kind));
}
