import { HarnessError } from '../core/errors.js';

/** What the policy says about a tool call: run it, ask a person first, or refuse it. */
export type Permission = 'allow' | 'ask' | 'deny';

/** The permissions a policy may give. */
export const PERMISSIONS: readonly Permission[] = ['allow', 'ask', 'deny'];

/** Tool name or tool kind → permission. A name beats a kind; anything not named is `allow`. */
export type PermissionPolicy = Readonly<Record<string, Permission>>;

/** Ready-made policies. */
export const permissionDefaults = {
  /**
   * The CLI's policy: read tools run, tools that write, run commands, reach the network (or do
   * something else the harness cannot classify) ask first.
   */
  interactive: Object.freeze({ read: 'allow', write: 'ask', shell: 'ask', network: 'ask', other: 'ask' }),
  /** The library's default: every call runs, as before there were policies. */
  allowAll: Object.freeze({}),
} as const satisfies Record<string, PermissionPolicy>;

/**
 * Checks a policy given from outside and returns a frozen copy. Throws `invalid_config` naming
 * the key and the value when a value is not `allow`, `ask` or `deny`, or the policy is not an
 * object of such values.
 */
export function checkPermissions(input: unknown, where = 'permissions'): PermissionPolicy {
  if (input === undefined) return permissionDefaults.allowAll;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HarnessError(
      'invalid_config',
      `${where} must be an object mapping a tool name or kind to 'allow', 'ask' or 'deny', got ${JSON.stringify(input) ?? String(input)}`,
    );
  }
  const policy: Record<string, Permission> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key.trim() === '') throw new HarnessError('invalid_config', `${where} has an empty tool name or kind`);
    if (!PERMISSIONS.includes(value as Permission)) {
      throw new HarnessError(
        'invalid_config',
        `${where}.${key} must be 'allow', 'ask' or 'deny', got ${JSON.stringify(value) ?? String(value)}`,
      );
    }
    policy[key] = value as Permission;
  }
  return Object.freeze(policy);
}

/**
 * The permission for a call to the tool `name` of kind `kind` (undefined for a tool that is not
 * registered: the same registry runs the call, and answers it as unknown without running it).
 * A rule for the name beats a rule for the kind; with neither, `allow`.
 */
export function permissionFor(policy: PermissionPolicy, name: string, kind: string | undefined): Permission {
  if (Object.hasOwn(policy, name)) return policy[name] as Permission;
  if (kind === undefined) return 'allow';
  if (Object.hasOwn(policy, kind)) return policy[kind] as Permission;
  return 'allow';
}

/** True when the policy allows every call without looking (no rule says `ask` or `deny`). */
export function allowsEverything(policy: PermissionPolicy): boolean {
  for (const key in policy) if (policy[key] !== 'allow') return false;
  return true;
}
