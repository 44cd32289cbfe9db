import { z } from 'zod';
import { type HandoffAgent, markHandoff } from '../agent/handoffs.js';
import { HarnessError } from '../core/errors.js';
import { ToolKind } from '../core/tool-kind.js';
import { ToolResult } from '../core/tool-result.js';
import { ToolRegistry } from '../tools/registry.js';
import { defineTool, type ToolLike } from '../tools/tool.js';

/** Options of {@link handoffTool}. */
export interface HandoffToolOptions {
  /** The agent to hand the conversation to. */
  readonly agent: HandoffAgent;
  /** The tool's name; `transfer_to_<agent name>` by default. */
  readonly name?: string;
  /** What the model is told the tool does; a sentence naming the agent by default. */
  readonly description?: string;
}

const AGENT_NAME = /^[A-Za-z0-9_-]{1,52}$/;

/** Arguments of a handoff tool: none needed. */
const schema = z.object({ reason: z.string().optional() });

/**
 * A tool that hands the conversation to another agent: when the model calls it, the machine
 * takes its `HANDOFF` transition (journaled as a `handoff` entry), and from the next request on
 * the model gets that agent's instructions as the system message and that agent's tools. The
 * call itself answers `Transferred to <name>.`.
 */
export function handoffTool(options: HandoffToolOptions): ToolLike<typeof schema> {
  const agent = options?.agent;
  if (typeof agent?.name !== 'string' || !AGENT_NAME.test(agent.name))
    throw new HarnessError(
      'invalid_argument',
      `handoffTool: agent.name must be 1-52 letters, digits, '_' or '-', got ${JSON.stringify(agent?.name)}`,
    );
  if (typeof agent.instructions !== 'string' || agent.instructions.trim() === '')
    throw new HarnessError('invalid_argument', `handoffTool: agent '${agent.name}' needs instructions`);
  if (!(agent.registry instanceof ToolRegistry))
    throw new HarnessError('invalid_argument', `handoffTool: agent '${agent.name}' needs a ToolRegistry`);
  const tool = defineTool({
    name: options.name ?? `transfer_to_${agent.name}`,
    description: options.description ?? `Hand the conversation over to the ${agent.name} agent.`,
    // It changes nothing in the world: running it twice hands over twice, to the same agent.
    kind: ToolKind.READ,
    concurrencySafe: false,
    idempotent: true,
    schema,
    execute: ({ run }) => {
      if (run === undefined) return ToolResult.error('a handoff needs an agent run: call it through an Agent');
      run.handOff(agent.name, agent.instructions);
      return `Transferred to ${agent.name}.`;
    },
  });
  return markHandoff(tool, agent);
}
