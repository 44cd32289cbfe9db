import { PERMISSIONS, type Permission, type PermissionRule, type PolicyFunction } from '../core/approval-types.js';
import { HarnessError } from '../core/errors.js';
import { ToolKind } from '../core/tool-kind.js';
import { copyOrigins, originOf } from './composed-rules.js';
import { editDistance } from './option-keys.js';

/** A key of this form names only the kind: `kind:read`. */
export const KIND_PREFIX = 'kind:';
/** A key of this form names only the tool: `tool:read` (a tool named like a kind). */
export const TOOL_PREFIX = 'tool:';
/** The key of the fallback: the rule for a call that no name or kind rule covers. */
export const FALLBACK_KEY = '*';

/**
 * Tool name or tool kind → permission, or a function of the call that answers one. A name beats
 * a kind, a kind beats the fallback (`'*'`); without one, anything not named is `allow`. A key
 * `kind:K` names only the kind K, a key `tool:T` only the tool T (for a tool named like a kind).
 */
export type PermissionPolicy = Readonly<Record<string, PermissionRule>>;

/** A rule of a policy and the key it was found under, as {@link ruleFor} finds it. */
export interface FoundRule {
  readonly rule: PermissionRule;
  /** The key as `Config` keeps it (`shell`, `kind:read`, `*`). */
  readonly key: string;
}

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
  /** The rule for a call no other rule covers. */
  readonly '*'?: PermissionRule;
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
    `${where} must be an object mapping a tool name or kind to 'allow', 'ask', 'deny' or a function of the call (or { kinds, tools } of such objects), or one function, got ${JSON.stringify(input) ?? String(input)}`,
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
function checkRules(
  input: Record<string, unknown>,
  where: string,
  prefix: string,
  into: Record<string, PermissionRule>,
) {
  for (const [key, value] of Object.entries(input)) {
    if (key.trim() === '') throw new HarnessError('invalid_config', `${where} has an empty tool name or kind`);
    if (!PERMISSIONS.includes(value as Permission) && typeof value !== 'function') {
      throw new HarnessError(
        'invalid_config',
        `${where}.${key} must be 'allow', 'ask', 'deny' or a function of the call, got ${JSON.stringify(value) ?? String(value)}`,
      );
    }
    const kept = key === FALLBACK_KEY ? key : `${prefix}${key}`;
    if (kept.startsWith(KIND_PREFIX)) checkKind(kept.slice(KIND_PREFIX.length), `${where}.${key}`);
    into[kept] = value as PermissionRule;
  }
}

/**
 * Checks a policy given from outside and returns a frozen copy: a flat map, a function (the
 * fallback alone: `{ '*': fn }`), or {@link ScopedPermissions} (kept with `kind:`/`tool:` keys).
 * Throws `invalid_config` naming the key and the value when a value is not `allow`, `ask`,
 * `deny` or a function, a kind is not one, or the policy is none of these forms. (Whether each
 * name is a registered tool is checked when a run starts, once the tools are known.)
 */
export function checkPermissions(input: unknown, where = 'permissions'): PermissionPolicy {
  if (input === undefined) return permissionDefaults.allowAll;
  if (typeof input === 'function') return Object.freeze({ [FALLBACK_KEY]: input as PolicyFunction });
  if (!isObject(input)) throw invalid(where, input);
  const policy: Record<string, PermissionRule> = {};
  if (Object.values(input).some(isObject)) {
    for (const [key, rules] of Object.entries(input)) {
      if (key === FALLBACK_KEY) {
        checkRules({ [key]: rules }, where, '', policy);
        continue;
      }
      if ((key !== 'kinds' && key !== 'tools') || !isObject(rules)) throw invalid(where, input);
      checkRules(rules, `${where}.${key}`, key === 'kinds' ? KIND_PREFIX : TOOL_PREFIX, policy);
    }
  } else {
    checkRules(input, where, '', policy);
  }
  copyOrigins(input, policy);
  return Object.freeze(policy);
}

const own = (policy: PermissionPolicy, key: string): FoundRule | undefined =>
  Object.hasOwn(policy, key) ? { rule: policy[key] as PermissionRule, key: originOf(policy, key) } : undefined;

/**
 * The rule for a call to the tool `name` of kind `kind` (undefined for a tool that is not
 * registered: the same registry runs the call, and answers it as unknown without running it),
 * and its key. A rule for the name beats a rule for the kind, which beats the fallback; with
 * none, undefined (the call is allowed).
 */
export function ruleFor(policy: PermissionPolicy, name: string, kind: string | undefined): FoundRule | undefined {
  const byName = own(policy, `${TOOL_PREFIX}${name}`) ?? own(policy, name);
  if (byName !== undefined || kind === undefined) return byName;
  return own(policy, `${KIND_PREFIX}${kind}`) ?? own(policy, kind) ?? own(policy, FALLBACK_KEY);
}

/**
 * The fixed permission for a call to the tool `name` of kind `kind` ({@link ruleFor}), `allow`
 * without a rule. A function rule cannot be known without the call: it counts as `ask` here.
 */
export function permissionFor(policy: PermissionPolicy, name: string, kind: string | undefined): Permission {
  const found = ruleFor(policy, name, kind);
  if (found === undefined) return 'allow';
  return typeof found.rule === 'function' ? 'ask' : found.rule;
}

/** True when the policy allows every call without looking (no rule says `ask` or `deny`, none is a function). */
export function allowsEverything(policy: PermissionPolicy): boolean {
  for (const key in policy) if (policy[key] !== 'allow') return false;
  return true;
}
