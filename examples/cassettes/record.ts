// Records a run of the dictionary agent (agent.ts) as a cassette, with a scripted model standing
// in for a real one (recordCassette wraps any client: an OpenAIClient records the same way).
// Run: npm run example -- examples/cassettes/record.ts lookup.cassette.jsonl
// Then: agent-harness replay lookup.cassette.jsonl --agent examples/cassettes/agent.ts --check
import { StreamEvent } from 'agent-harness';
import { recordCassette, ScriptedClient } from 'agent-harness/testing';
import { makeAgent } from './agent.js';

const path = process.argv[2] ?? 'lookup.cassette.jsonl';
const usage = { promptTokens: 40, completionTokens: 8, totalTokens: 48 };
const model = new ScriptedClient([
  [
    StreamEvent.textDelta('Looking it up.'),
    StreamEvent.toolCallComplete({ callId: 'call-1', name: 'lookup', arguments: { word: 'cassette' } }),
    StreamEvent.messageComplete(usage, 'tool_calls'),
  ],
  [
    StreamEvent.textDelta('A cassette is '),
    StreamEvent.textDelta('a small case holding magnetic tape.'),
    StreamEvent.messageComplete(usage, 'stop'),
  ],
]);

const recorder = recordCassette(path, model);
const agent = makeAgent(recorder);
for await (const event of agent.run('What is a cassette?')) {
  if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
}
const cassette = await recorder.save(agent.session);
console.log(`recorded ${cassette.turns.length} model turns and ${cassette.journal.length} journal entries to ${path}`);
