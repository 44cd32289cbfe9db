import { PERMISSIONS, type Permission } from '../core/approval-types.js';
import { HarnessError } from '../core/errors.js';
import { ToolKind } from '../core/tool-kind.js';
import { editDistance } from './option-keys.js';

/** A key of this form names only the kind: `kind:read`. */
export const KIND_PREFIX = 'kind:';
/** A key of this form names only the tool: `tool:read` (a tool named like a kind). */
export const TOOL_PREFIX = 'tool:';

/**
 * Tool name or tool kind → permission. A name beats a kind; anything not named is `allow`. A key
 * `kind:K` names only the kind K, a key `tool:T` only the tool T (for a tool named like a kind).
 */
export type PermissionPolicy = Readonly<Record<string, Permission>>;

/**
 * A policy with kinds and tool names apart, for a tool whose name is also a kind (an MCP tool
 * named `read`): `{ kinds: { read: 'allow' }, tools: { read: 'deny' } }`. `Config` keeps it as
 * the {@link PermissionPolicy} `{ 'kind:read': 'allow', 'tool:read': 'deny' }`.
 */
export interface ScopedPermissions {
  /** Tool kind → permission. */
  readonly kinds?: Readonly<Partial<Record<ToolKind, Permission>>>;
  /** Tool name → permission; beats the tool's kind. */
  readonly tools?: PermissionPolicy;
}

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

function invalid(where: string, input: unknown): HarnessError {
  return new HarnessError(
    'invalid_config',
    `${where} must be an object mapping a tool name or kind to 'allow', 'ask' or 'deny' (or { kinds, tools } of such objects), got ${JSON.stringify(input) ?? String(input)}`,
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkKind(kind: string, where: string): void {
  if ((Object.values(ToolKind) as string[]).includes(kind)) return;
  const close = Object.values(ToolKind).find((known) => editDistance(kind, known) <= 2);
  throw new HarnessError(
    'invalid_config',
    `${where} names '${kind}', which is not a tool kind (${Object.values(ToolKind).join(', ')})${close === undefined ? '' : `; did you mean '${close}'?`}`,
  );
}

/** The rules of a flat policy or of one half of a scoped one, with each key as `Config` keeps it. */
function checkRules(input: Record<string, unknown>, where: string, prefix: string, into: Record<string, Permission>) {
  for (const [key, value] of Object.entries(input)) {
    if (key.trim() === '') throw new HarnessError('invalid_config', `${where} has an empty tool name or kind`);
    if (!PERMISSIONS.includes(value as Permission)) {
      throw new HarnessError(
        'invalid_config',
        `${where}.${key} must be 'allow', 'ask' or 'deny', got ${JSON.stringify(value) ?? String(value)}`,
      );
    }
    const kept = `${prefix}${key}`;
    if (kept.startsWith(KIND_PREFIX)) checkKind(kept.slice(KIND_PREFIX.length), `${where}.${key}`);
    into[kept] = value as Permission;
  }
}

/**
 * Checks a policy given from outside and returns a frozen copy: a flat map, or
 * {@link ScopedPermissions} (kept with `kind:`/`tool:` keys). Throws `invalid_config` naming the
 * key and the value when a value is not `allow`, `ask` or `deny`, a kind is not one, or the
 * policy is neither form. (Whether each name is a registered tool is checked when a run starts,
 * once the tools are known.)
 */
export function checkPermissions(input: unknown, where = 'permissions'): PermissionPolicy {
  if (input === undefined) return permissionDefaults.allowAll;
  if (!isObject(input)) throw invalid(where, input);
  const policy: Record<string, Permission> = {};
  if (Object.values(input).some(isObject)) {
    for (const [key, rules] of Object.entries(input)) {
      if ((key !== 'kinds' && key !== 'tools') || !isObject(rules)) throw invalid(where, input);
      checkRules(rules, `${where}.${key}`, key === 'kinds' ? KIND_PREFIX : TOOL_PREFIX, policy);
    }
  } else {
    checkRules(input, where, '', policy);
  }
  return Object.freeze(policy);
}

/**
 * The permission for a call to the tool `name` of kind `kind` (undefined for a tool that is not
 * registered: the same registry runs the call, and answers it as unknown without running it).
 * A rule for the name beats a rule for the kind; with neither, `allow`.
 */
export function permissionFor(policy: PermissionPolicy, name: string, kind: string | undefined): Permission {
  const rule = policy[`${TOOL_PREFIX}${name}`] ?? (Object.hasOwn(policy, name) ? policy[name] : undefined);
  if (rule !== undefined) return rule;
  if (kind === undefined) return 'allow';
  return policy[`${KIND_PREFIX}${kind}`] ?? (Object.hasOwn(policy, kind) ? (policy[kind] as Permission) : 'allow');
}

/** True when the policy allows every call without looking (no rule says `ask` or `deny`). */
export function allowsEverything(policy: PermissionPolicy): boolean {
  for (const key in policy) if (policy[key] !== 'allow') return false;
  return true;
}
