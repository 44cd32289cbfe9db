// A child process for the kill -9 test of nested runs: runs the three-level delegation on a
// session in a store; the `effect` tool appends its item to an effects file, and for item 2 then
// prints `effect 2` and hangs, so the test kills the process with item 1 done and item 2 in doubt
// three levels down. `node --import tsx crash-delegation.ts <store url> <session id> <effects file>`.
import { appendFileSync } from 'node:fs';
import { Agent, Config, openStore, Session } from '../../../src/index.js';
import { delegationClients, leadRegistry } from './delegation.js';

const [url = '', id = '', effects = ''] = process.argv.slice(2);
const config = new Config();
const store = await openStore(url);
const clients = delegationClients();
const registry = leadRegistry(clients, async (n) => {
  appendFileSync(effects, `${n}\n`);
  if (n !== 2) return;
  process.stdout.write('effect 2\n');
  await new Promise(() => {}); // killed here
});
const session = new Session(config, { client: clients.lead, registry, store, id });
await session.durable();
process.stdout.write('started\n');
for await (const event of new Agent(config, { session }).run('write the report')) {
  if (event.type === 'agent_end' || event.type === 'agent_error') process.stdout.write(`${event.type}\n`);
}
