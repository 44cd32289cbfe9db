// Save a run's journal, read it back and replay it with no model and no tools; then cut the
// journal as if the process had crashed mid-turn and resume it: recorded tool results are kept,
// only the calls still owed a result run.
// Run: npm run example -- examples/replay-and-resume.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
} from 'agent-harness';
import { readJournalFile, writeJournalFile } from 'agent-harness/journal';
import { z } from 'zod';

const ran: string[] = [];
const step = defineTool({
  name: 'step',
  description: 'Does one step of the job.',
  kind: ToolKind.WRITE, // one at a time
  schema: z.object({ n: z.number().int() }),
  execute: ({ params, callId }) => {
    ran.push(callId);
    return `step ${params.n} done`;
  },
});

const config = new Config({ cwd: process.cwd() });
const registry = new ToolRegistry(config).register(step);
const turns = () => [
  [
    StreamEvent.toolCallComplete({ callId: 's1', name: 'step', arguments: { n: 1 } }),
    StreamEvent.toolCallComplete({ callId: 's2', name: 'step', arguments: { n: 2 } }),
    StreamEvent.messageComplete(),
  ],
  [StreamEvent.textDelta('Both steps are done.'), StreamEvent.messageComplete()],
];

// 1. A whole run, saved as versioned JSON Lines.
const session = new Session(config);
for await (const _ of new Agent(config, { client: new ScriptedClient(turns()), tools: registry, session }).run(
  'Do the job.',
)) {
  // read every event; the journal records what matters
}
const file = join(mkdtempSync(join(tmpdir(), 'agent-harness-example-')), 'run.jsonl');
await writeJournalFile(file, session.journal);

// 2. Replay: the same messages, usage and turns, and a byte-identical journal.
const journal = await readJournalFile(file);
const replayed = Session.replay(journal, config);
console.log(`replayed ${journal.length} entries, identical: ${stableJson(replayed.journal) === stableJson(journal)}`);

// 3. A crash right after the first tool result: resume runs only s2, then asks the model again.
const cut = journal.findIndex((entry) => entry.type === 'tool_result') + 1;
ran.length = 0;
const crashed = Session.replay(journal.slice(0, cut), config);
const client = new ScriptedClient([turns()[1] ?? []]);
for await (const event of new Agent(config, { client, tools: registry, session: crashed }).resume()) {
  if (event.type === 'agent_end') console.log(`resumed answer: ${event.data.response}`);
}
console.log(`tools run on resume: ${ran.join(', ')}`);
