import { editDistance } from '../config/option-keys.js';
import { FALLBACK_KEY, KIND_PREFIX, type PermissionPolicy, TOOL_PREFIX } from '../config/permission-policy.js';
import { HarnessError } from '../core/errors.js';
import { ToolKind } from '../core/tool-kind.js';
import type { ToolRegistry } from '../tools/registry.js';
import { handoffAgentOf } from './handoffs.js';

/** The tool kinds a policy rule may name. */
export const POLICY_KINDS: readonly string[] = Object.values(ToolKind);

/** A policy key that cannot be applied, found by {@link policyKeyProblem}. */
export interface PolicyKeyProblem {
  /** The key as it is in the policy (`shel`, `tool:read_fil`). */
  readonly key: string;
  /** What is wrong, naming the key, with a "did you mean" when one is close. */
  readonly message: string;
}

/** Every tool an agent can be in charge of: its own and those of the agents its handoffs reach. */
function reachableTools(registry: ToolRegistry): Map<string, string> {
  const tools = new Map<string, string>();
  const seen = new Set<ToolRegistry>([registry]);
  const queue: ToolRegistry[] = [registry];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const name of next.names()) {
      const tool = next.get(name);
      if (tool !== undefined && !tools.has(name)) tools.set(name, tool.kind);
      const agent = handoffAgentOf(tool);
      if (agent !== undefined && !seen.has(agent.registry)) {
        seen.add(agent.registry);
        queue.push(agent.registry);
      }
    }
  }
  return tools;
}

/** The candidate closest to `key`, when it is close enough to be a typo. */
function nearest(key: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function unknown(key: string, what: string, suggestion: string | undefined): PolicyKeyProblem {
  const hint = suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
  return { key, message: `permissions.${key} names ${what}${hint}` };
}

/**
 * The first rule of `policy` that cannot be applied to the tools of `registry` (and of the
 * agents its handoffs reach), or undefined. A key must name a kind or a registered tool (a
 * misspelt rule would otherwise be ignored and the tool run); `kind:K` a kind, `tool:T` a
 * registered tool. A plain key that is both a kind and the name of a tool of another kind is
 * ambiguous: the tool is refused until the policy says which it means.
 */
export function policyKeyProblem(policy: PermissionPolicy, registry: ToolRegistry): PolicyKeyProblem | undefined {
  const keys = Object.keys(policy);
  if (keys.length === 0) return undefined;
  const tools = reachableTools(registry);
  for (const key of keys) {
    if (key.startsWith(KIND_PREFIX) || key === FALLBACK_KEY) continue; // checked when the policy was made
    if (key.startsWith(TOOL_PREFIX)) {
      const name = key.slice(TOOL_PREFIX.length);
      if (!tools.has(name)) {
        const close = nearest(name, tools.keys());
        return unknown(key, `no registered tool`, close === undefined ? undefined : `${TOOL_PREFIX}${close}`);
      }
      continue;
    }
    const kind = tools.get(key);
    if (POLICY_KINDS.includes(key)) {
      const message = ambiguousRule(policy, key, kind);
      if (message === undefined) continue;
      return { key, message };
    }
    if (kind === undefined) {
      return unknown(
        key,
        `neither a tool kind (${POLICY_KINDS.join(', ')}) nor a registered tool`,
        nearest(key, [...POLICY_KINDS, ...tools.keys()]),
      );
    }
  }
  return undefined;
}

/**
 * Why the plain key `name` of `policy` cannot decide a call to the tool `name` of kind `kind`,
 * or undefined: the key is a kind and the tool is of another kind, so the rule means both. A
 * run refuses such a policy when it starts; a tool that joins later (an MCP `list_changed`
 * applied between turns) is refused per call instead, never allowed by the kind's rule.
 */
export function ambiguousRule(policy: PermissionPolicy, name: string, kind: string | undefined): string | undefined {
  if (!Object.hasOwn(policy, name) || !POLICY_KINDS.includes(name) || kind === undefined || kind === name) return;
  return (
    `permissions.${name} is ambiguous: '${name}' is a tool kind and also the name of a registered tool of kind ` +
    `'${kind}'. Say which it means: { kinds: { ${name}: … } } or { tools: { ${name}: … } } ` +
    `(or the keys '${KIND_PREFIX}${name}' / '${TOOL_PREFIX}${name}'), or register the tool under another name (an MCP prefix)`
  );
}

/** Throws `invalid_config` for the first rule of `policy` that {@link policyKeyProblem} finds. */
export function checkPolicyKeys(policy: PermissionPolicy, registry: ToolRegistry): void {
  const problem = policyKeyProblem(policy, registry);
  if (problem !== undefined) throw new HarnessError('invalid_config', problem.message);
}
