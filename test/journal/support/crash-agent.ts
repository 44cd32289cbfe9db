// A child process for the kill -9 tests of sessions with a store: runs an agent whose `step` tool
// (kind write: not idempotent) appends its call id to an effects file, on a session kept in a
// store, until it is killed. `node --import tsx crash-agent.ts <store url> <session id> <effects file>`.
import { appendFileSync } from 'node:fs';
import { Agent, Config, openStore, Session } from '../../../src/index.js';
import { stepClient, stepRegistry } from './step-agent.js';

const [url = '', id = '', effects = ''] = process.argv.slice(2);
const config = new Config({ maxTurns: 50 });
const store = await openStore(url);
const session = new Session(config, {
  client: stepClient(),
  registry: stepRegistry(config, (callId) => appendFileSync(effects, `${callId}\n`)),
  store,
  id,
});
await session.durable();
process.stdout.write('started\n');
for await (const event of new Agent(config, { session }).run('do the steps')) {
  if (event.type === 'agent_end' || event.type === 'agent_error') process.stdout.write(`${event.type}\n`);
}
await session.close();
await store.close();
