// The agent under test in the cassette example: a dictionary agent with one tool. `replay
// --agent examples/cassettes/agent.ts` builds it with `makeAgent`, around the replay's client.
import { Agent, Config, defineTool, type ModelClient, ToolKind, ToolRegistry } from 'agent-harness';
import { z } from 'zod';

/** The lookup tool's description as recorded. */
export const LOOKUP_DESCRIPTION = 'Looks a word up in the dictionary.';

/** The agent, with the lookup tool described as given. */
export function buildAgent(client: ModelClient, description = LOOKUP_DESCRIPTION): Agent {
  const config = new Config({ systemPrompt: 'You define words, briefly.' });
  const lookup = defineTool({
    name: 'lookup',
    description,
    kind: ToolKind.READ,
    schema: z.object({ word: z.string() }),
    execute: ({ params }) => (params.word === 'cassette' ? 'a small case holding magnetic tape' : 'not found'),
  });
  return new Agent(config, { client, tools: new ToolRegistry(config).register(lookup) });
}

/** What `agent-harness replay --agent` calls. */
export function makeAgent(client: ModelClient): Agent {
  return buildAgent(client);
}
