import type { ToolRegistry } from '../tools/registry.js';
import type { ToolLike } from '../tools/tool.js';
import { toolTag } from '../tools/tool-tag.js';

/** An agent the conversation can be handed to: its name, instructions and tools. */
export interface HandoffAgent {
  /** Its name (letters, digits, `_` and `-`): the tool is `transfer_to_<name>`. */
  readonly name: string;
  /** Its instructions: the system message once it takes over. */
  readonly instructions: string;
  /** Its tools (include a handoff back, if it may hand the conversation back). */
  readonly registry: ToolRegistry;
}

/** Where a handoff tool keeps the agent it hands to. */
const TARGET = toolTag<HandoffAgent>('agent-harness.handoffTarget');

/** Marks `tool` as handing to `agent`. */
export function markHandoff<T extends object>(tool: T, agent: HandoffAgent): T {
  return TARGET.mark(tool, agent);
}

/** The agent a handoff tool hands to; undefined for any other tool. */
export function handoffAgentOf(tool: ToolLike | undefined): HandoffAgent | undefined {
  return TARGET.of(tool);
}

/**
 * Finds agent `name` among the handoff tools reachable from `registry`: its own, then those of
 * the agents they hand to, breadth first (a journaled handoff names the agent; replay finds it).
 */
export function handoffTarget(registry: ToolRegistry, name: string): HandoffAgent | undefined {
  const seen = new Set<ToolRegistry>([registry]);
  const queue: ToolRegistry[] = [registry];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const toolName of next.names()) {
      const agent = handoffAgentOf(next.get(toolName));
      if (agent === undefined) continue;
      if (agent.name === name) return agent;
      if (!seen.has(agent.registry)) {
        seen.add(agent.registry);
        queue.push(agent.registry);
      }
    }
  }
  return undefined;
}

/**
 * The tools of the agent in charge: after a handoff to agent `active` (as the session journaled
 * it), the registry of that agent, found among the handoff tools reachable from `registry`;
 * otherwise `registry` itself.
 */
export function activeRegistry(registry: ToolRegistry, active: string | undefined): ToolRegistry {
  if (active === undefined) return registry;
  return handoffTarget(registry, active)?.registry ?? registry;
}
