// A child process for the tests of a suspended run resumed in a new process from a real store.
// `node --import tsx suspended-child.ts <start|resume> <store url> <session id> <effects file> [approvals JSON] [on ask]`
// start: runs one turn asking for c1 change (write), c2 look (read), c3 run (shell), c4 change
//   (write) under a policy that asks for write and shell, and suspends once the run waits only
//   for decisions.
// resume: loads the session, resumes it with the approvals given, and answers each request it
//   emits with `on ask` (`approve`, or `suspend` to suspend the run again).
// Every tool appends `name:callId` to the effects file; every event is printed as a JSON line,
// then the messages of the model's requests (`{"type":"requests",…}`).
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import type { ApprovalMap } from '../../src/machine.js';

const usage = { promptTokens: 5, completionTokens: 2, totalTokens: 7 };
const callsTurn = (...calls: readonly [callId: string, name: string][]) => [
  ...calls.map(([callId, name]) => StreamEvent.toolCallComplete({ callId, name, arguments: {} })),
  StreamEvent.messageComplete(usage),
];
const textTurn = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete(usage)];

const [mode = '', url = '', id = '', effects = '', approvals = '{}', onAsk = 'suspend'] = process.argv.slice(2);

const config = new Config({ permissions: { read: 'allow', write: 'ask', shell: 'ask' } });
const tool = (name: string, kind: 'read' | 'write' | 'shell') =>
  defineTool({
    name,
    description: `${kind} tool`,
    kind,
    schema: z.object({}).passthrough(),
    execute: ({ callId }) => {
      appendFileSync(effects, `${name}:${callId}\n`);
      return `${name} done`;
    },
  });
const registry = new ToolRegistry(config).register(tool('look', 'read'), tool('change', 'write'), tool('run', 'shell'));
const store = await openStore(url);
const client = new ScriptedClient(
  mode === 'start'
    ? [callsTurn(['c1', 'change'], ['c2', 'look'], ['c3', 'run'], ['c4', 'change'])]
    : [textTurn('all done')],
);
const session =
  mode === 'start'
    ? new Session(config, { client, registry, store, id })
    : await Session.load(store, id, { config, client, registry });
const agent = new Agent(config, { session });
// Suspend once the run waits only for decisions (after the transition into the state has finished).
const suspendWhenWaiting = () =>
  agent.stream$.subscribe((record) => {
    if (record.entry.type === 'transition' && record.entry.to === 'awaitingApproval')
      setImmediate(() => agent.suspend());
  });
const watching = onAsk === 'suspend' ? suspendWhenWaiting() : undefined;
const run =
  mode === 'start' ? agent.run('change things') : agent.resume({ approvals: JSON.parse(approvals) as ApprovalMap });
for await (const event of run) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
  if (event.type === 'tool_approval_request' && onAsk === 'approve') agent.approve(event.data.callId);
}
watching?.unsubscribe();
process.stdout.write(`${JSON.stringify({ type: 'requests', data: client.requests.map((r) => r.messages) })}\n`);
await session.close();
await store.close();
