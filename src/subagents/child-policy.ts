import { type PermissionPolicy, permissionFor } from '../config/permission-policy.js';
import type { Permission } from '../core/approval-types.js';
import type { ToolRegistry } from '../tools/registry.js';

const STRICTNESS: Readonly<Record<Permission, number>> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two permissions: `deny` over `ask` over `allow`. */
function stricter(a: Permission, b: Permission): Permission {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/** A key's own rule in a policy, `allow` when it has none. */
const ruleOf = (policy: PermissionPolicy, key: string): Permission =>
  Object.hasOwn(policy, key) ? (policy[key] as Permission) : 'allow';

/**
 * A sub-agent's tool policy: its own, never wider than its parent's. Each of the child's tools
 * gets the stricter of what the two policies say about it (each with its own name-beats-kind
 * rule, so a child's `write_file: 'allow'` cannot undo a parent's `write: 'deny'`), named in
 * the result so it wins over any kind rule; every other key (a kind, a tool not registered yet)
 * gets the stricter of the two rules for that key.
 */
export function narrowPolicy(
  child: PermissionPolicy,
  parent: PermissionPolicy,
  registry: ToolRegistry | undefined,
): PermissionPolicy {
  const policy: Record<string, Permission> = {};
  for (const key of new Set([...Object.keys(child), ...Object.keys(parent)]))
    policy[key] = stricter(ruleOf(child, key), ruleOf(parent, key));
  for (const name of registry?.names() ?? []) {
    const kind = registry?.get(name)?.kind;
    policy[name] = stricter(permissionFor(child, name, kind), permissionFor(parent, name, kind));
  }
  return Object.freeze(policy);
}
