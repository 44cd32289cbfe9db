import { policyKeyProblem } from '../agent/policy-keys.js';
import { type PermissionPolicy, permissionDefaults } from '../config/permission-policy.js';
import type { ToolRegistry } from '../tools/registry.js';
import { UsageError } from './usage-error.js';

/** The approval flags of `run`, for `parseArgs`. */
export const PERMISSION_FLAGS = {
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  yes: { type: 'boolean', default: false },
} as const;

/** Help lines of `run --policy FILE`. */
export const POLICY_HELP = `  --policy FILE    the policy of a module that exports \`policy\` (a map of rules or
                   functions of the call, or one function; see docs/approval.md), instead
                   of the defaults; --allow/--deny still apply on top. A \`guardrails\`
                   export ({ input?, output?, toolResult? }) adds guardrails (docs/guardrails.md).
                   .js/.mjs, or .ts when node runs with a TypeScript loader (node --import tsx)`;

/** Help lines of the approval flags. */
export const PERMISSION_HELP = `  --allow NAME|KIND  run calls of this tool or kind (read, write, shell, network, other)
                   without asking; repeatable. tool:NAME / kind:KIND say which, for a
                   tool named like a kind
  --deny NAME|KIND   refuse calls of this tool or kind without asking (the model gets
                   "Error: denied: …"); repeatable
  --yes            allow every call that is not denied (no questions)
                   Default policy: read tools run; write, shell, network and other tools ask.
                   On a terminal each question is answered y(es) / n(o, with a reason) /
                   a(lways, for this tool) / e(dit the arguments as JSON, then run);
                   without a terminal a run that must ask is
                   suspended, and the command to resume it is printed`;

// `kind:K` names only the kind, `tool:T` only the tool (a tool named like a kind).
const NAME = /^(?:kind:|tool:)?[A-Za-z0-9_.-]{1,64}$/;

function names(list: readonly string[] | undefined, flag: string): string[] {
  return (list ?? []).map((text) => {
    const name = text.trim();
    if (!NAME.test(name)) throw new UsageError(`${flag} takes a tool name or kind, got '${text}'`);
    return name;
  });
}

/**
 * The policy from the flags: the interactive defaults (`--yes`: none), then `--allow`, then
 * `--deny`. A name or kind given to both `--allow` and `--deny` is a usage error.
 */
export function permissionPolicy(values: {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly yes?: boolean;
  readonly policy?: string | undefined;
}): PermissionPolicy {
  const allow = names(values.allow, '--allow');
  const deny = names(values.deny, '--deny');
  const both = allow.find((name) => deny.includes(name));
  if (both !== undefined) throw new UsageError(`'${both}' is given to both --allow and --deny`);
  if (values.yes && values.policy !== undefined)
    throw new UsageError('--yes and --policy FILE both set the policy: give one');
  // With --policy, the flags' rules alone: they go on top of the module's policy once it is loaded.
  const policy: Record<string, 'allow' | 'ask' | 'deny'> = values.yes
    ? { read: 'allow', write: 'allow', shell: 'allow', network: 'allow', other: 'allow' }
    : values.policy !== undefined
      ? {}
      : { ...permissionDefaults.interactive };
  for (const name of allow) policy[name] = 'allow';
  for (const name of deny) policy[name] = 'deny';
  return Object.freeze(policy);
}

/**
 * Checks the policy's rules against the tools the run has (MCP tools included): a name that is
 * neither a kind nor a tool is a usage error naming the flag, with "did you mean". With a
 * `--policy` module, a rule the flags did not give is the module's, and the error names its file.
 */
export function checkPermissionFlags(
  policy: PermissionPolicy,
  registry: ToolRegistry,
  module?: { readonly file: string; readonly flags: PermissionPolicy },
): void {
  const problem = policyKeyProblem(policy, registry);
  if (problem === undefined) return;
  if (module !== undefined && !Object.hasOwn(module.flags, problem.key)) {
    throw new UsageError(`--policy ${module.file}: ${problem.message}`);
  }
  const flag = policy[problem.key] === 'deny' ? '--deny' : policy[problem.key] === 'allow' ? '--allow' : 'the policy';
  throw new UsageError(`${flag} ${problem.key}: ${problem.message}`);
}
