// The same agent after an intended change: the lookup tool's description says more. Replaying
// the cassette recorded with agent.ts fails on the tools offered, with a diff of the description.
import type { Agent, ModelClient } from 'agent-harness';
import { buildAgent } from './agent.js';

/** What `agent-harness replay --agent` calls. */
export function makeAgent(client: ModelClient): Agent {
  return buildAgent(client, 'Looks a word up in the dictionary; give the word in lower case.');
}
