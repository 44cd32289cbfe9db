import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
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
  const config = new Config({ cwd, maxTurns: 4, systemPrompt: 'Be brief.' });
  const client = new AnthropicClient({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: server.url });
  const session = new Session(config, {
    client,
    registry: new ToolRegistry(config).register(new ReadFileTool(config)),
  });
  return { agent: new Agent(config, { session }), session };
}

describe('an agent on the Anthropic client', () => {
  it('emits tool_call_delta events as the arguments stream, in order, before each call starts, and journals none', async () => {
    const { agent, session } = await agentOn([
      { chunks: [fixture('anthropic/tool-use.sse')] },
      { chunks: [fixture('anthropic/text.sse')] },
    ]);
    const events = await collect(agent.run('What is in the folder?'));
    const deltas = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.data] : []));
    const joined = (callId: string) =>
      deltas
        .filter((d) => d.callId === callId)
        .map((d) => d.argumentsDelta)
        .join('');
    expect(JSON.parse(joined('toolu_01A'))).toEqual({ path: 'app.py' });
    expect(JSON.parse(joined('toolu_02B'))).toEqual({ path: 'notes.md' });
    expect(deltas.every((d) => d.name === 'read_file')).toBe(true);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('tool_call_delta')).toBeLessThan(types.indexOf('tool_call_start'));
    expect(JSON.stringify(session.journal)).not.toContain('tool_call_delta');
  });

  it('runs tool_use blocks and sends their results back in one user turn', async () => {
    const { agent, session } = await agentOn([
      { chunks: [fixture('anthropic/tool-use.sse')] },
      { chunks: [fixture('anthropic/text.sse')] },
    ]);
    const events = await collect(agent.run('What is in the folder?'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { turnCount: 2 } });
    expect(session.totalUsage).toEqual({
      promptTokens: 597,
      completionTokens: 104,
      totalTokens: 701,
      cachedPromptTokens: 100,
      cacheWriteTokens: 0,
    });
    const second = server?.requests[1]?.body as {
      system: { text: string }[];
      messages: { role: string; content: { type: string }[] }[];
    };
    expect(second.system.map((block) => block.text)).toEqual(['Be brief.']);
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[2]?.content.map((block) => block.type)).toEqual(['tool_result', 'tool_result']);
  });

  it('ends with model_error and no half-written turn when the connection is cut', async () => {
    const { agent, session } = await agentOn([{ chunks: [fixture('anthropic/cut.sse')], cut: true }]);
    const events = await collect(agent.run('Read app.py'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    expect(session.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });
});

describe('an agent on the Anthropic client, asked for structured output', () => {
  it('forces the final_answer tool and reads its input as the parsed answer', async () => {
    const { agent, session } = await agentOn([
      { chunks: [fixture('anthropic/tool-use.sse')] },
      { chunks: splitBytes(fixture('anthropic/final-answer.sse'), 9) },
    ]);
    const Files = z.object({ files: z.array(z.string()) });
    const events = await collect(agent.run('Which files are there?', { output: Files }));
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { output: { files: ['app.py', 'notes.md'] }, turnCount: 2 },
    });
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_end', output: { files: ['app.py', 'notes.md'] } });
    const body = server?.requests[0]?.body as {
      tools: { name: string; input_schema: { type: string; properties?: object } }[];
      tool_choice: unknown;
    };
    expect(body.tools.map((tool) => tool.name)).toEqual(['read_file', 'final_answer']);
    expect(body.tools[1]?.input_schema).toMatchObject({ type: 'object', properties: { files: { type: 'array' } } });
    expect(body.tool_choice).toEqual({ type: 'any' });
  });
});
