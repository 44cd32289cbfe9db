import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { fromAiSdk } from '../../../src/ai-sdk.js';
import { fallbackClient } from '../../../src/fallback.js';
import { StreamEvent } from '../../../src/index.js';
import { collect, makeAgent } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';
import { drain, drainError } from '../support/drain.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...answers: Parameters<typeof startFakeServer>): Promise<FakeServer> {
  const server = await startFakeServer(...answers);
  servers.push(server);
  return server;
}

function compatible(server: FakeServer, model = 'gpt-4.1-mini') {
  const provider = createOpenAICompatible({
    name: 'local',
    baseURL: `${server.url}/v1`,
    apiKey: 'test-key',
    includeUsage: true,
  });
  return provider.chatModel(model);
}

function gemini(server: FakeServer, model = 'gemini-2.5-flash') {
  return createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'test-key' })(model);
}

/** Gemini's `streamGenerateContent?alt=sse` chunks. */
function geminiSse(...chunks: object[]): string[] {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
}

const geminiToolTurn = geminiSse(
  { candidates: [{ content: { role: 'model', parts: [{ text: 'Plan: read it.', thought: true }] } }] },
  {
    candidates: [
      { content: { role: 'model', parts: [{ text: '', thought: true, thoughtSignature: 'c2lnbmF0dXJl' }] } },
    ],
  },
  { candidates: [{ content: { role: 'model', parts: [{ text: 'Reading ' }] } }] },
  { candidates: [{ content: { role: 'model', parts: [{ text: 'a.txt.' }] } }] },
  {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'read_file', args: { path: 'a.txt' } }, thoughtSignature: 'Y2FsbA==' }],
        },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: {
      promptTokenCount: 1200,
      candidatesTokenCount: 30,
      totalTokenCount: 1280,
      cachedContentTokenCount: 1000,
      thoughtsTokenCount: 50,
    },
  },
);

describe('fromAiSdk with @ai-sdk/openai-compatible against a loopback OpenAI-compatible server', () => {
  it('streams parallel tool calls with their argument deltas, and sends the tools', async () => {
    const server = await serve([{ chunks: splitBytes(fixture('openai/parallel-tool-calls.sse'), 97) }]);
    const client = fromAiSdk(compatible(server));
    const events = await drain(
      await client.chatCompletion(
        [{ role: 'user', content: 'read both' }],
        [{ name: 'read_file', description: 'reads a file', parameters: { type: 'object', properties: {} } }],
      ),
    );
    const calls = events.filter((event) => event.type === 'tool_call_complete').map((event) => event.toolCall);
    expect(calls.map((call) => call?.name)).toEqual(['read_file', 'read_file']);
    expect(calls.every((call) => typeof call?.arguments === 'object')).toBe(true);
    expect(events.some((event) => event.type === 'tool_call_delta')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'message_complete', finishReason: 'tool_calls' });
    const body = server.requests[0]?.body as {
      model: string;
      stream: boolean;
      tools: { function: { name: string } }[];
    };
    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ model: 'gpt-4.1-mini', stream: true });
    expect(body.tools.map((tool) => tool.function.name)).toEqual(['read_file']);
  });

  it('reports cached and reasoning tokens where the server gives them', async () => {
    const server = await serve([{ chunks: [fixture('openai/usage-details.sse')] }]);
    const events = await drain(
      await fromAiSdk(compatible(server, 'o4-mini')).chatCompletion([{ role: 'user', content: 'x' }]),
    );
    expect(events.at(-1)).toEqual(
      StreamEvent.messageComplete(
        {
          promptTokens: 2048,
          completionTokens: 300,
          totalTokens: 2348,
          cachedPromptTokens: 1920,
          reasoningTokens: 256,
        },
        'stop',
      ),
    );
  });

  it('a 429 is rate_limited, and a fallback chain moves to the next server', async () => {
    const limited = await serve([{ status: 429, chunks: ['{"error":{"message":"Rate limit reached"}}'] }]);
    const healthy = await serve([{ chunks: [fixture('openai/text.sse')] }]);
    const error = await drainError(
      (await fromAiSdk(compatible(limited)).chatCompletion([])) as AsyncIterable<StreamEvent>,
    );
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
    const chain = fallbackClient([
      fromAiSdk(compatible(limited, 'model-a')),
      fromAiSdk(compatible(healthy, 'model-b')),
    ]);
    const { agent, session } = makeAgent(chain, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('hello'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(session.journal.find((entry) => entry.type === 'model_switch')).toMatchObject({
      from: 'model-a',
      to: 'model-b',
      reason: 'rate_limit',
    });
    expect(session.journal.find((entry) => entry.type === 'usage')).toMatchObject({ model: 'model-b' });
  });
});

describe('fromAiSdk with @ai-sdk/google against a loopback Gemini server', () => {
  it('streams thoughts (with their signature), text, a function call and usage', async () => {
    const server = await serve([{ chunks: geminiToolTurn }]);
    const client = fromAiSdk(gemini(server));
    const events = await drain(
      await client.chatCompletion(
        [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'read a.txt' },
        ],
        [{ name: 'read_file', description: 'reads a file', parameters: { type: 'object', properties: {} } }],
      ),
    );
    expect(server.requests[0]?.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(server.requests[0]?.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'be brief' }] },
      contents: [{ role: 'user', parts: [{ text: 'read a.txt' }] }],
      tools: [{ functionDeclarations: [{ name: 'read_file', description: 'reads a file' }] }],
    });
    const call = events.find((event) => event.type === 'tool_call_complete')?.toolCall;
    // Gemini streams a signature-only thought as its own block: it is kept as a part of its own.
    const reasoning = events.filter((event) => event.type === 'reasoning_complete').map((event) => event.reasoning);
    expect(reasoning).toEqual([
      { type: 'reasoning', provider: 'google.generative-ai', text: 'Plan: read it.' },
      {
        type: 'reasoning',
        provider: 'google.generative-ai',
        text: '',
        signature: '{"google":{"thoughtSignature":"c2lnbmF0dXJl"}}',
      },
      {
        type: 'reasoning',
        provider: 'google.generative-ai',
        id: `tool-call-metadata:${call?.callId}`,
        signature: '{"google":{"thoughtSignature":"Y2FsbA=="}}',
      },
    ]);
    expect(
      events
        .filter((event) => event.type === 'text_delta')
        .map((event) => (event.textDelta as { content: string }).content)
        .join(''),
    ).toBe('Reading a.txt.');
    expect(call).toMatchObject({ name: 'read_file', arguments: { path: 'a.txt' } });
    expect(events.at(-1)).toMatchObject({
      type: 'message_complete',
      finishReason: 'tool_calls',
      usage: { promptTokens: 1200, cachedPromptTokens: 1000, reasoningTokens: 50 },
    });
  });

  it('runs an agent turn with a tool and sends the thought signature back with the call', async () => {
    const final = geminiSse({
      candidates: [{ content: { role: 'model', parts: [{ text: 'It says hi.' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 },
    });
    const server = await serve([{ chunks: geminiToolTurn }, { chunks: final }]);
    const cwd = tempWorkspace();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${cwd}/a.txt`, 'hi');
    const { ReadFileTool } = await import('../../../src/tools/index.js');
    const { agent } = makeAgent(fromAiSdk(gemini(server)), [(config) => new ReadFileTool(config)], { cwd });
    const events = await collect(agent.run('read a.txt'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'It says hi.' } });
    const second = server.requests[1]?.body as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(second.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(JSON.stringify(second.contents[1])).toContain('c2lnbmF0dXJl');
    // The call's own signature goes back on the call (Gemini 3 refuses a signed call without it).
    expect(second.contents[1]?.parts.at(-1)).toMatchObject({
      functionCall: { name: 'read_file', args: { path: 'a.txt' } },
      thoughtSignature: 'Y2FsbA==',
    });
    expect(second.contents[2]?.parts[0]).toMatchObject({ functionResponse: { name: 'read_file' } });
  });

  it('a 503 is a server error and a 429 is rate_limited', async () => {
    for (const [status, kind] of [
      [503, 'server'],
      [429, 'rate_limited'],
    ] as const) {
      const server = await serve([{ status, chunks: [`{"error":{"code":${status},"message":"try later"}}`] }]);
      const error = await drainError(
        (await fromAiSdk(gemini(server)).chatCompletion([])) as AsyncIterable<StreamEvent>,
      );
      expect(error).toMatchObject({ kind, status });
    }
  });
});
