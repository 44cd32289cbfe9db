import { composeRules, noteOrigins } from '../config/composed-rules.js';
import { type FoundRule, type PermissionPolicy, ruleFor } from '../config/permission-policy.js';
import type { PermissionRule } from '../core/approval-types.js';
import type { ToolRegistry } from '../tools/registry.js';

/** A key's own rule in a policy, none when it has none. */
const ruleOf = (policy: PermissionPolicy, key: string): FoundRule | undefined =>
  Object.hasOwn(policy, key) ? { rule: policy[key] as PermissionRule, key } : undefined;

/** The parent's side of a composed rule, named as the parent's. */
const parents = (found: FoundRule | undefined): FoundRule | undefined =>
  found === undefined ? undefined : { rule: found.rule, key: `parent ${found.key}` };

/**
 * A sub-agent's tool policy: its own, never wider than its parent's. Each of the child's tools
 * gets the stricter of what the two policies say about it (each with its own name-beats-kind
 * rule, so a child's `write_file: 'allow'` cannot undo a parent's `write: 'deny'`), named in
 * the result so it wins over any kind rule; every other key (a kind, a tool not registered yet,
 * the fallback) gets the stricter of the two rules for that key. A function rule on either side
 * makes a rule that asks both and takes the stricter answer.
 */
export function narrowPolicy(
  child: PermissionPolicy,
  parent: PermissionPolicy,
  registry: ToolRegistry | undefined,
): PermissionPolicy {
  const policy: Record<string, PermissionRule> = {};
  const origins = new Map<string, string>();
  const keep = (key: string, found: FoundRule) => {
    policy[key] = found.rule;
    if (found.key !== '' && found.key !== key) origins.set(key, found.key);
  };
  for (const key of new Set([...Object.keys(child), ...Object.keys(parent)]))
    keep(key, composeRules(ruleOf(child, key), parents(ruleOf(parent, key))));
  for (const name of registry?.names() ?? []) {
    const kind = registry?.get(name)?.kind;
    keep(name, composeRules(ruleFor(child, name, kind), parents(ruleFor(parent, name, kind))));
  }
  const narrowed = Object.freeze(policy);
  noteOrigins(narrowed, origins);
  return narrowed;
}
