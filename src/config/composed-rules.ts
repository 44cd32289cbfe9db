import type { Permission, PermissionRule, PolicyFunction } from '../core/approval-types.js';
import type { FoundRule } from './permission-policy.js';

const STRICTNESS: Readonly<Record<Permission, number>> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two permissions: `deny` over `ask` over `allow` (the first on a tie). */
export function stricter(a: Permission, b: Permission): Permission {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/** The two rules a composed rule asks, the narrower agent's first. */
export interface ComposedRule {
  readonly first: FoundRule | undefined;
  readonly second: FoundRule | undefined;
}

const composed = new WeakMap<PolicyFunction, ComposedRule>();

/**
 * One rule that answers the stricter of two (a sub-agent's and its parent's). Two fixed rules
 * give a fixed one; when either is a function, a function that asks both: whoever evaluates it
 * finds its parts with {@link composedParts}, so the rule that decided is named.
 */
export function composeRules(first: FoundRule | undefined, second: FoundRule | undefined): FoundRule {
  const a = first?.rule ?? 'allow';
  const b = second?.rule ?? 'allow';
  if (typeof a !== 'function' && typeof b !== 'function') {
    const rule = stricter(a, b);
    const from = rule === a ? first : second;
    return { rule, key: from?.key ?? '' };
  }
  const rule: PolicyFunction = () => 'deny'; // never called: evaluated through its parts
  composed.set(rule, { first, second });
  return { rule, key: '' };
}

const origins = new WeakMap<object, ReadonlyMap<string, string>>();

/** Notes, for a policy made by composing two, the key each fixed rule came from (`parent write`). */
export function noteOrigins(policy: object, keys: ReadonlyMap<string, string>): void {
  origins.set(policy, keys);
}

/** Keeps the origins of `from` (a composed policy checked again) for its copy `to`. */
export function copyOrigins(from: object, to: object): void {
  const keys = origins.get(from);
  if (keys !== undefined) origins.set(to, keys);
}

/** The key a rule of `policy` came from, when the policy was composed ({@link noteOrigins}), else `key`. */
export function originOf(policy: object, key: string): string {
  return origins.get(policy)?.get(key) ?? key;
}

/** The parts of a rule made by {@link composeRules}, or undefined for any other rule. */
export function composedParts(rule: PermissionRule): ComposedRule | undefined {
  return typeof rule === 'function' ? composed.get(rule) : undefined;
}
