import { Agent, Config, Session, ToolRegistry } from '../src/index.js';
import { type Contender, expectComplete, oncePerToolTurns } from './contender.js';
import { LeanClient } from './lean-client.js';
import { checkpointTool, PROMPT } from './workload.js';

/** Everything one harness session needs, shared by the sessions of one shape (like a server would). */
interface Shared {
  readonly config: Config;
  readonly registry: ToolRegistry;
  readonly client: LeanClient;
}

/** Makes the shared config, registry and client for runs of `toolTurns` tool turns. */
export function sharedSetup(toolTurns: number): Shared {
  const config = new Config({ maxTurns: toolTurns + 1 });
  const registry = new ToolRegistry(config).register(checkpointTool());
  return { config, registry, client: new LeanClient(toolTurns) };
}

/** A new, idle agent with its own session. */
export function newAgent(shared: Shared): Agent {
  const session = new Session(shared.config);
  return new Agent(shared.config, { client: shared.client, tools: shared.registry, session });
}

/** Runs an agent to its end; returns the final answer and the turns it took. */
export async function runAgent(agent: Agent): Promise<{ answer: string | undefined; turns: number }> {
  let answer: string | undefined;
  for await (const event of agent.run(PROMPT)) {
    if (event.type === 'agent_end') answer = event.data.response;
    if (event.type === 'agent_error') throw new Error(`agent-harness: ${event.data.reason}: ${event.data.message}`);
  }
  return { answer, turns: agent.session.turnCount };
}

/** agent-harness on the workload, one new session and agent per run. */
export function harnessContender(): Contender {
  const setupFor = oncePerToolTurns(sharedSetup);
  return {
    name: 'agent-harness',
    async run(toolTurns) {
      const { answer, turns } = await runAgent(newAgent(setupFor(toolTurns)));
      return expectComplete('agent-harness', answer, turns, toolTurns);
    },
  };
}
