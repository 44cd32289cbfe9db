import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import { Agent, Config, ReadFileTool, Session, ToolRegistry } from '../../../src/index.js';
import { collect } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';
import { type FakeResponse, type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function agentOn(answers: FakeResponse[]) {
  server = await startFakeServer(answers);
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'app.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(cwd, 'notes.md'), '# Notes\n');
  const config = new Config({ cwd, maxTurns: 4 });
  const client = new OpenAIClient({ model: 'gpt-4.1-mini', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
  const session = new Session(config, {
    client,
    registry: new ToolRegistry(config).register(new ReadFileTool(config)),
  });
  return { agent: new Agent(config, { session }), session };
}

describe('an agent on the OpenAI client', () => {
  it('emits tool_call_delta events as the arguments stream, in order, before each call starts, and journals none', async () => {
    const { agent, session } = await agentOn([
      { chunks: splitBytes(fixture('openai/parallel-tool-calls.sse'), 11) },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const events = await collect(agent.run('What is in the folder?'));
    const deltas = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.data] : []));
    const joined = (callId: string) =>
      deltas
        .filter((d) => d.callId === callId)
        .map((d) => d.argumentsDelta)
        .join('');
    expect(JSON.parse(joined('call_A1'))).toEqual({ path: 'app.py' });
    expect(JSON.parse(joined('call_B2'))).toEqual({ path: 'notes.md' });
    expect(deltas.every((d) => d.name === 'read_file')).toBe(true);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('tool_call_delta')).toBeLessThan(types.indexOf('tool_call_start'));
    expect(JSON.stringify(session.journal)).not.toContain('tool_call_delta');
  });

  it('runs parallel tool calls from the wire and answers with the summed usage', async () => {
    const { agent, session } = await agentOn([
      { chunks: splitBytes(fixture('openai/parallel-tool-calls.sse'), 11) },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const events = await collect(agent.run('What is in the folder?'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { turnCount: 2 } });
    const observations = session.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(observations).toHaveLength(2);
    expect(observations[0]).toContain('return a + b');
    expect(observations[1]).toContain('# Notes');
    expect(session.totalUsage).toEqual({ promptTokens: 138, completionTokens: 63, totalTokens: 201 });
    const second = server?.requests[1]?.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_A1', 'call_B2']);
  });

  it('lets the registry answer arguments that are not JSON with Invalid parameters', async () => {
    const { agent, session } = await agentOn([
      { chunks: [fixture('openai/invalid-arguments.sse')] },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const events = await collect(agent.run('Read app.py'));
    expect(events.at(-1)?.type).toBe('agent_end');
    const observation = session.messages.find((m) => m.role === 'tool');
    expect(observation?.content).toMatch(/^Error: Invalid parameters: arguments are not valid JSON/);
  });

  it('ends with model_error and no half-written turn when the connection is cut', async () => {
    const { agent, session } = await agentOn([{ chunks: [fixture('openai/cut.sse')], cut: true }]);
    const events = await collect(agent.run('Read app.py'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    expect(session.messages.map((m) => m.role)).toEqual(['user']);
    expect(session.journal.some((entry) => entry.type === 'assistant_message')).toBe(false);
  });
});

/** A Chat Completions stream that answers with `content`, split into `pieces`. */
function answerSse(pieces: string[]): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    ...pieces.map((content) => chunk({ content }, null)),
    chunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 90, completion_tokens: 12, total_tokens: 102 } })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
}

describe('an agent on the OpenAI client, asked for structured output', () => {
  it('sends response_format json_schema and parses the answer; a failing one goes back once', async () => {
    const { agent, session } = await agentOn([
      { chunks: splitBytes(fixture('openai/parallel-tool-calls.sse'), 11) },
      { chunks: [answerSse(['{"files": ["app.py"', ']}'])] },
      { chunks: [answerSse(['{"files": ["app.py", "notes.md"], "count": 2}'])] },
    ]);
    const Files = z.object({ files: z.array(z.string()), count: z.number() });
    const events = await collect(agent.run('Which files are there?', { output: Files }));
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { output: { files: ['app.py', 'notes.md'], count: 2 }, turnCount: 3 },
    });
    const body = server?.requests[0]?.body as {
      response_format: { type: string; json_schema: { name: string; schema: object } };
    };
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'final_answer', schema: { type: 'object', required: ['files', 'count'] } },
    });
    const third = server?.requests[2]?.body as { messages: { role: string; content: string }[] };
    expect(third.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('Invalid output: count:'),
    });
    expect(session.lastOutput).toEqual({ files: ['app.py', 'notes.md'], count: 2 });
  });
});
