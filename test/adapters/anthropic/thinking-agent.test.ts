import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import {
  Agent,
  type AssistantMessage,
  Config,
  type ModelClient,
  ReadFileTool,
  Session,
  ToolRegistry,
} from '../../../src/index.js';
import { checkReasoningIntegrity, type SentRequest } from '../../../src/testing/index.js';
import { collect } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';
import { type FakeServer, startFakeServer } from '../support/fake-server.js';
import { invalidRequest, startThinkingServer } from './thinking-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function thinkingAgent() {
  server = await startThinkingServer();
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'app.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(cwd, 'notes.md'), '# Notes\n');
  const config = new Config({ cwd, maxTurns: 5, systemPrompt: 'Be brief.' });
  const client = new AnthropicClient({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    thinking: { budgetTokens: 2048 },
  });
  // What the agent hands the client, for the reasoning-integrity check.
  const sent: SentRequest[] = [];
  const recording: ModelClient = {
    model: client.model,
    provider: client.provider,
    chatCompletion: (messages, tools, options) => {
      sent.push({ messages: [...messages], provider: client.provider });
      return client.chatCompletion(messages, tools, options);
    },
  };
  const session = new Session(config, {
    client: recording,
    registry: new ToolRegistry(config).register(new ReadFileTool(config)),
  });
  return { agent: new Agent(config, { session }), session, sent };
}

describe('an agent on the Anthropic client with extended thinking', () => {
  it('runs a 3-turn tool loop the API accepts: each turn’s thinking goes back with its tool results', async () => {
    const { agent, session, sent } = await thinkingAgent();
    const events = await collect(agent.run('What do app.py and notes.md hold?'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { turnCount: 3 } });
    expect(checkReasoningIntegrity(session.journal, sent)).toEqual([]);
    expect(server?.requests).toHaveLength(3);
    const turns = session.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(turns.map((m) => m.reasoning?.map((part) => part.type))).toEqual([
      ['reasoning'],
      ['redacted_reasoning', 'reasoning'],
    ]);
    // the answer's turn keeps its reasoning in the journal's agent_end, with the answer
    expect(session.journal.at(-1)).toMatchObject({
      type: 'agent_end',
      reasoning: [{ type: 'reasoning', provider: 'anthropic', text: 'Both files are read; I can answer.' }],
    });
  });

  it('streams the thinking as reasoning deltas, before the turn’s text', async () => {
    const { agent } = await thinkingAgent();
    const events = await collect(agent.run('What do app.py and notes.md hold?'));
    // Read as plain records: the test holds whichever agent-event union the build has.
    const records = events as readonly { type: string; data: unknown }[];
    const types = records.map((e) => e.type);
    expect(types.indexOf('reasoning_delta')).toBeGreaterThan(-1);
    expect(types.indexOf('reasoning_delta')).toBeLessThan(types.indexOf('text_delta'));
    const firstTurn = records.slice(0, types.indexOf('text_delta'));
    const thought = firstTurn.flatMap((e) =>
      e.type === 'reasoning_delta' ? [(e.data as { content: string }).content] : [],
    );
    expect(thought.join('')).toBe('The user asks what app.py does. I should read it first.');
  });

  it('ends with the provider’s error, after one request and no retry, when the API refuses a signature', async () => {
    // The Messages API's answer to a thinking block whose signature does not verify.
    const refusal = 'messages.1.content.0: Invalid `signature` in `thinking` block';
    // Every request gets the same refusal: a retry, or a loop, would show as a second request.
    server = await startFakeServer([invalidRequest(refusal)]);
    const config = new Config({ cwd: tempWorkspace(), maxTurns: 5 });
    const session = new Session(config, {
      client: new AnthropicClient({
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-ant-test',
        baseURL: server.url,
        thinking: { budgetTokens: 2048 },
      }),
      registry: new ToolRegistry(config).register(new ReadFileTool(config)),
    });
    // A turn whose signature no longer verifies upstream (a journal edited, or made under another key).
    session.addUserMessage('What does app.py hold?');
    session.addAssistantMessage(
      '',
      [{ callId: 'toolu_1', name: 'read_file', arguments: { path: 'app.py' } }],
      [{ type: 'reasoning', provider: 'anthropic', text: 'Read it.', signature: 'EqQBCgIYAhIMtampered' }],
    );
    session.addToolResult('toolu_1', 'def add(a, b): ...');
    const events = await collect(new Agent(config, { session }).run('And then?'));
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]?.body as { messages: { content: { type: string; signature?: string }[] }[] };
    expect(sent.messages[1]?.content[0]).toMatchObject({ type: 'thinking', signature: 'EqQBCgIYAhIMtampered' });
    expect(events.filter((e) => e.type === 'agent_error')).toEqual([
      { type: 'agent_error', data: { reason: 'model_error', message: expect.stringContaining(refusal) } },
    ]);
    expect(events.at(-1)?.type).toBe('agent_error');
  });
});
