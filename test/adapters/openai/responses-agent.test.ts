import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import type { ReasoningContent } from '../../../src/core/messages.js';
import { Agent, Config, type ModelClient, ReadFileTool, Session, ToolRegistry } from '../../../src/index.js';
import { collect } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';
import {
  type FakeResponder,
  type FakeResponse,
  type FakeServer,
  fixture,
  startFakeServer,
} from '../support/fake-server.js';
import { reasoningCheckingServer, type ScriptedResponse } from '../support/responses-sse.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function agentOn(
  answers: readonly FakeResponse[] | FakeResponder,
  wrap: (client: ModelClient) => ModelClient = (client) => client,
) {
  server = await startFakeServer(answers);
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'app.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(cwd, 'notes.md'), '# Notes\n');
  const config = new Config({ cwd, maxTurns: 5 });
  const client = new OpenAIClient({
    model: 'o4-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    api: 'responses',
  });
  const session = new Session(config, {
    client: wrap(client),
    registry: new ToolRegistry(config).register(new ReadFileTool(config)),
  });
  return { agent: new Agent(config, { session }), session };
}

const turns: ScriptedResponse[] = [
  {
    reasoning: { id: 'rs_A', encrypted: 'gAAAAA-enc-A', summary: 'Read app.py first.' },
    call: { callId: 'call_A', name: 'read_file', arguments: '{"path":"app.py"}' },
    usage: { input: 400, cached: 0, output: 90, reasoning: 64 },
  },
  {
    reasoning: { id: 'rs_B', encrypted: 'gAAAAA-enc-B', summary: 'Now the notes.' },
    call: { callId: 'call_B', name: 'read_file', arguments: '{"path":"notes.md"}' },
    usage: { input: 520, cached: 384, output: 70, reasoning: 48 },
  },
  {
    reasoning: { id: 'rs_C', encrypted: 'gAAAAA-enc-C', summary: 'Enough to answer.' },
    text: 'app.py adds two numbers; the notes are empty.',
    usage: { input: 640, cached: 512, output: 30, reasoning: 16 },
  },
];

type Item = Record<string, unknown>;

describe('an agent on the Responses API with a reasoning model', () => {
  it('keeps each turn’s reasoning item before its function call through a 3-turn tool loop', async () => {
    const { respond, refusals } = reasoningCheckingServer(turns);
    const { agent, session } = await agentOn(respond);
    const events = await collect(agent.run('What do app.py and the notes say?'));
    expect(refusals).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { turnCount: 3 } });
    const third = (server?.requests[2]?.body as { input: Item[] } | undefined)?.input ?? [];
    expect(third.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(third[1]).toEqual({
      type: 'reasoning',
      id: 'rs_A',
      encrypted_content: 'gAAAAA-enc-A',
      summary: [{ type: 'summary_text', text: 'Read app.py first.' }],
    });
    expect(third[4]).toMatchObject({ id: 'rs_B', encrypted_content: 'gAAAAA-enc-B' });
    expect(third[3]).toMatchObject({ call_id: 'call_A', output: expect.stringContaining('return a + b') });
    const ids = (parts: readonly ReasoningContent[] | undefined) =>
      parts?.map((part) => (part.type === 'reasoning' ? part.id : part.type));
    const turnsWithTools = session.messages.filter((m) => m.role === 'assistant');
    expect(turnsWithTools.map((m) => ids(m.reasoning))).toEqual([['rs_A'], ['rs_B']]);
    const end = session.journal.find((entry) => entry.type === 'agent_end');
    expect(ids(end?.type === 'agent_end' ? end.reasoning : undefined)).toEqual(['rs_C']);
    expect(session.totalUsage).toMatchObject({
      promptTokens: 1560,
      completionTokens: 190,
      cachedPromptTokens: 896,
      reasoningTokens: 128,
    });
  });

  it('sends a summary given in several parts back part by part, as received, through the journal', async () => {
    // The second part holds a blank line itself: joined, the parts could not be told apart again.
    const parts = ['**Reading the code**', 'Open app.py.\n\nThen answer.'];
    const [first, , last] = turns as [ScriptedResponse, ScriptedResponse, ScriptedResponse];
    const { respond, refusals } = reasoningCheckingServer([
      { ...first, reasoning: { ...first.reasoning, summary: parts } },
      last,
    ]);
    const { agent, session } = await agentOn(respond);
    const events = await collect(agent.run('What does app.py say?'));
    expect(refusals).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end' });
    const saved = Session.replay(session.journal, new Config());
    expect(saved.messages.find((m) => m.role === 'assistant')?.reasoning).toEqual([
      {
        type: 'reasoning',
        provider: 'openai',
        id: 'rs_A',
        encrypted: 'gAAAAA-enc-A',
        summary: parts.join('\n\n'),
        summaryParts: parts,
      },
    ]);
    const second = (server?.requests[1]?.body as { input: Item[] } | undefined)?.input ?? [];
    expect(second.find((item) => item.type === 'reasoning')?.summary).toEqual(
      parts.map((text) => ({ type: 'summary_text', text })),
    );
  });

  it('sends a reasoning text given in several parts back part by part, as received, through the journal', async () => {
    // The second part holds a blank line itself: joined, the parts could not be told apart again.
    const parts = ['I should read app.py.', 'It adds.\n\nSo answer that.'];
    const [first, , last] = turns as [ScriptedResponse, ScriptedResponse, ScriptedResponse];
    const { respond, refusals } = reasoningCheckingServer([
      { ...first, reasoning: { ...first.reasoning, text: parts } },
      last,
    ]);
    const { agent, session } = await agentOn(respond);
    const events = await collect(agent.run('What does app.py say?'));
    expect(refusals).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end' });
    // Streamed, the parts are joined as the finished part joins them (the first turn's, before its call runs).
    const firstTurn = events.slice(
      0,
      events.findIndex((e) => e.type === 'tool_call_start'),
    );
    const streamed = firstTurn.flatMap((e) => (e.type === 'reasoning_delta' ? [e.data.content] : [])).join('');
    expect(streamed).toBe(`Read app.py first.${parts.join('\n\n')}`);
    const saved = Session.replay(session.journal, new Config());
    expect(saved.messages.find((m) => m.role === 'assistant')?.reasoning).toEqual([
      {
        type: 'reasoning',
        provider: 'openai',
        id: 'rs_A',
        encrypted: 'gAAAAA-enc-A',
        summary: 'Read app.py first.',
        text: parts.join('\n\n'),
        textParts: parts,
      },
    ]);
    const second = (server?.requests[1]?.body as { input: Item[] } | undefined)?.input ?? [];
    expect(second.find((item) => item.type === 'reasoning')?.content).toEqual(
      parts.map((text) => ({ type: 'reasoning_text', text })),
    );
  });

  it('is refused by the server, as the real API refuses it, when a turn’s reasoning is not sent back', async () => {
    const { respond, refusals } = reasoningCheckingServer(turns);
    const dropReasoning = (client: ModelClient): ModelClient => ({
      provider: client.provider,
      chatCompletion: (messages, tools, options) =>
        client.chatCompletion(
          messages.map((m) =>
            m.role === 'assistant'
              ? { role: 'assistant', content: m.content, ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}) }
              : m,
          ),
          tools,
          options,
        ),
    });
    const { agent, session } = await agentOn(respond, dropReasoning);
    const events = await collect(agent.run('What do app.py and the notes say?'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    expect(refusals).toEqual([
      "Item 'fc_call_A' of type 'function_call' was provided without its required 'reasoning' item: 'rs_A'.",
    ]);
    expect(server?.requests).toHaveLength(2);
    expect(session.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
  });

  it('answers with structured output through text.format json_schema', async () => {
    const { agent, session } = await agentOn([{ chunks: [fixture('openai-responses/structured.sse')] }]);
    const Files = z.object({ files: z.array(z.string()), count: z.number() });
    const events = await collect(agent.run('Which files are there?', { output: Files }));
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { output: { files: ['app.py', 'notes.md'], count: 2 } },
    });
    const body = server?.requests[0]?.body as { text: { format: Item } };
    expect(body.text.format).toMatchObject({
      type: 'json_schema',
      name: 'final_answer',
      schema: { type: 'object', required: ['files', 'count'] },
    });
    expect(session.lastOutput).toEqual({ files: ['app.py', 'notes.md'], count: 2 });
  });
});
