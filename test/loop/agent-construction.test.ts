import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain } from '../support/runs.js';

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const callTurn = (callId: string) => [
  StreamEvent.toolCallComplete({ callId, name: 'echo', arguments: {} }),
  StreamEvent.messageComplete(usage),
];
const textTurn = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete(usage)];

function echoTools(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'echo',
      description: 'Echoes.',
      kind: ToolKind.READ,
      schema: z.object({}),
      execute: () => 'ok',
    }),
  );
  return registry;
}

describe('new Agent(config, { client, tools, session }): the agent holds the client and the tools', () => {
  it('runs with its own client and tools in a session that holds neither', async () => {
    const config = new Config();
    const session = new Session(config);
    const client = new ScriptedClient([callTurn('c1'), textTurn('done')]);
    const tools = echoTools();
    const agent = new Agent(config, { client, tools, session });
    expect(agent.client).toBe(client);
    expect(agent.tools).toBe(tools);
    expect(agent.activeTools).toBe(tools);
    const events = await drain(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(client.requests[0]?.tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(session.client).toBeUndefined();
  });

  it('loads a stored session without a client, and runs it with the agent’s', async () => {
    const store = await openStore('memory:');
    const config = new Config();
    const first = new Session(config, { store, id: 's' });
    await drain(new Agent(config, { client: new ScriptedClient([textTurn('one')]), session: first }).run('a'));
    await first.close();
    const loaded = await Session.load(store, 's', { config });
    const client = new ScriptedClient([textTurn('two')]);
    const events = await drain(new Agent(config, { client, tools: echoTools(), session: loaded }).run('b'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'two' } });
    expect(loaded.messages.map((message) => message.content)).toContain('one');
    await loaded.close();
    await store.close();
  });

  it('ends with no_client when neither the agent nor its session has a client', async () => {
    const agent = new Agent(new Config(), { tools: echoTools() });
    await expect(drain(agent.run('go'))).rejects.toMatchObject({ reason: 'no_client' });
  });
});

describe('the deprecated forms still work for one minor version, forwarded to the agent', () => {
  it('new Session(config, { client, registry }) + new Agent(config, { session })', async () => {
    const config = new Config();
    const client = new ScriptedClient([callTurn('c1'), textTurn('done')]);
    const registry = echoTools();
    const session = new Session(config, { client, registry });
    const agent = new Agent(config, { session });
    expect(agent.client).toBe(client);
    expect(agent.tools).toBe(registry);
    const events = await drain(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(client.requests[0]?.tools.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('Session.load(store, id, { config, client, registry }) + new Agent(config, { session })', async () => {
    const store = await openStore('memory:');
    const config = new Config();
    const registry = echoTools();
    const session = new Session(config, { client: new ScriptedClient([textTurn('one')]), registry, store, id: 's' });
    await drain(new Agent(config, { session }).run('a'));
    await session.close();
    const client = new ScriptedClient([callTurn('c2'), textTurn('two')]);
    const loaded = await Session.load(store, 's', { config, client, registry });
    const agent = new Agent(config, { session: loaded });
    expect(agent.client).toBe(client);
    expect(agent.tools).toBe(registry);
    const events = await drain(agent.run('b'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'two' } });
    expect(client.requests[0]?.tools.map((tool) => tool.name)).toEqual(['echo']);
    await loaded.close();
    await store.close();
  });

  it('the agent’s own client and tools win over the session’s; `registry` is an alias of `tools`', () => {
    const config = new Config();
    const session = new Session(config, { client: new ScriptedClient([]), registry: new ToolRegistry() });
    const client = new ScriptedClient([]);
    const tools = echoTools();
    const agent = new Agent(config, { client, tools, session });
    expect(agent.client).toBe(client);
    expect(agent.tools).toBe(tools);
    const registry = echoTools();
    expect(new Agent(config, { client, registry }).tools).toBe(registry);
    expect(new Agent(config, { client, registry, tools }).tools).toBe(tools);
  });
});
