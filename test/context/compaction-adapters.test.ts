import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../src/adapters/anthropic/anthropic-client.js';
import { OpenAIClient } from '../../src/adapters/openai/openai-client.js';
import { SUMMARY_REQUEST } from '../../src/context/index.js';
import { Agent, Config, type ModelClient, ReadFileTool, Session, ToolRegistry } from '../../src/index.js';
import { type FakeServer, startFakeServer } from '../adapters/support/fake-server.js';
import { collect } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sse = (events: readonly object[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
const named = (events: readonly ({ type: string } & Record<string, unknown>)[]) =>
  events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/** OpenAI streams: a call to read_file, reporting `prompt` input tokens; a text answer. */
const openai = {
  call: (id: string, prompt: number) =>
    `${sse([
      {
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              tool_calls: [
                { index: 0, id, type: 'function', function: { name: 'read_file', arguments: '{"path":"app.py"}' } },
              ],
            },
            finish_reason: null,
          },
        ],
      },
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 },
      },
    ])}data: [DONE]\n\n`,
  text: (text: string, prompt: number) =>
    `${sse([
      { choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] },
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        usage: { prompt_tokens: prompt, completion_tokens: 5, total_tokens: prompt + 5 },
      },
    ])}data: [DONE]\n\n`,
};

const start = (prompt: number) => ({
  type: 'message_start',
  message: {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    content: [],
    usage: { input_tokens: prompt, output_tokens: 1 },
  },
});
const anthropic = {
  call: (id: string, prompt: number) =>
    named([
      start(prompt),
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name: 'read_file', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"app.py"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 10 } },
      { type: 'message_stop' },
    ]),
  text: (text: string, prompt: number) =>
    named([
      start(prompt),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]),
};

const PROVIDERS = [
  [
    'OpenAI',
    openai,
    (url: string) => new OpenAIClient({ model: 'gpt-4.1-mini', apiKey: 'sk-test', baseURL: `${url}/v1` }),
  ],
  [
    'Anthropic',
    anthropic,
    (url: string) => new AnthropicClient({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: url }),
  ],
] as const;

describe.each(PROVIDERS)('summarising compaction through the %s client', (_name, wire, makeClient) => {
  it('uses the reported prompt tokens, sends the summary request without tools, and the summary after', async () => {
    // app.py is about 500 tokens. Turn 1 reports 150 prompt tokens: with its result the context
    // is near 800, under 1,000. Turn 2 reports 700: with a second copy of the file it is over, so
    // the first turn is summarised before turn 3.
    server = await startFakeServer([
      { chunks: [wire.call('call_1', 150)] },
      { chunks: [wire.call('call_2', 700)] },
      { chunks: [wire.text('Read app.py once: it adds two numbers.', 800)] },
      { chunks: [wire.text('app.py adds two numbers.', 400)] },
    ]);
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, 'app.py'), `def add(a, b):\n    return a + b\n${'# a comment line\n'.repeat(115)}`);
    const config = new Config({ cwd, maxTurns: 5, context: { maxTokens: 1_000, strategy: 'summarise' } });
    const client: ModelClient = makeClient(server.url);
    const session = new Session(config, {
      client,
      registry: new ToolRegistry(config).register(new ReadFileTool(config)),
    });
    const events = await collect(new Agent(config, { session }).run('What does app.py do?'));
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { response: 'app.py adds two numbers.', turnCount: 3 },
    });
    expect(server.requests).toHaveLength(4);
    const summaryBody = JSON.stringify(server.requests[2]?.body);
    expect(JSON.parse(summaryBody).tools).toBeUndefined();
    expect(summaryBody).toContain(JSON.stringify(SUMMARY_REQUEST));
    const compaction = session.journal.find((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ strategy: 'summarise', from: 1, to: 3, tokensBefore: expect.any(Number) });
    expect(compaction?.type === 'compaction' && compaction.tokensBefore).toBeGreaterThan(1_000);
    expect(compaction?.type === 'compaction' && compaction.tokensAfter).toBeLessThan(1_000);
    // The last request: the task, the summary, then the newest turn with its result.
    const last = JSON.stringify(server.requests[3]?.body);
    expect(last).toContain('[summary of 2 earlier messages]\\nRead app.py once: it adds two numbers.');
    expect(last).toContain('call_2');
    expect(last).not.toContain('call_1');
    // The summary's usage counts: 805 on top of the three turns'.
    expect(session.totalUsage.totalTokens).toBe(160 + 710 + 805 + 405);
  });
});
