import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3StreamPart, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { fromAiSdk } from '../../../src/ai-sdk.js';
import type { Message } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';
import { PDF, PNG, screenshot, toolImageConversation } from '../support/parts.js';

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(chunks: (string | Buffer)[]): Promise<FakeServer> {
  const server = await startFakeServer([{ chunks }]);
  servers.push(server);
  return server;
}

function firstBody(server: FakeServer): unknown {
  const [first] = server.requests;
  if (first === undefined) throw new Error('no request arrived');
  return first.body;
}

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const answer = [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'ok' },
  { type: 'text-end', id: 't' },
  { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
] as const;

/** A conversation with URL parts: an image in the task, a PDF by URL from a tool. */
const withUrls: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
      { type: 'file', mediaType: 'application/pdf', data: PDF, name: 'spec.pdf' },
    ],
  },
  { role: 'assistant', content: '', toolCalls: [{ callId: 'c1', name: 'fetch', arguments: {} }] },
  {
    role: 'tool',
    callId: 'c1',
    content: [...screenshot, { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/r.pdf' }],
  },
];

describe('fromAiSdk with images and files, in the form of each specification version', () => {
  it('V4: file parts with tagged data, and a tool result as content with file parts', async () => {
    const model = new MockLanguageModelV4({
      doStream: { stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([...answer]) },
    });
    await drain(await fromAiSdk(model).chatCompletion(withUrls));
    const [user, , tool] = model.doStreamCalls[0]?.prompt ?? [];
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'file', mediaType: 'image/png', data: { type: 'url', url: new URL('https://example.com/a.png') } },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: PDF }, filename: 'spec.pdf' },
      ],
    });
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'fetch',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'the screen' },
              { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
              {
                type: 'file',
                mediaType: 'application/pdf',
                data: { type: 'url', url: new URL('https://example.com/r.pdf') },
              },
            ],
          },
        },
      ],
    });
  });

  it('V3: file parts with base64 or a URL, and image-data / file-url tool content', async () => {
    const model = new MockLanguageModelV3({
      doStream: { stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([...answer]) },
    });
    await drain(await fromAiSdk(model).chatCompletion(withUrls));
    const [user, , tool] = model.doStreamCalls[0]?.prompt ?? [];
    expect(user?.content).toEqual([
      { type: 'file', mediaType: 'image/png', data: new URL('https://example.com/a.png') },
      { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'spec.pdf' },
    ]);
    expect(tool?.content).toEqual([
      expect.objectContaining({
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'the screen' },
            { type: 'image-data', data: PNG, mediaType: 'image/png' },
            { type: 'file-url', url: 'https://example.com/r.pdf' },
          ],
        },
      }),
    ]);
  });

  it('V2: media tool content, and a note for a URL the version cannot carry', async () => {
    const prompts: unknown[][] = [];
    const v2 = {
      specificationVersion: 'v2',
      provider: 'mock.v2',
      modelId: 'old-1',
      async doStream(options: { prompt: readonly unknown[] }) {
        prompts.push([...options.prompt]);
        return { stream: convertArrayToReadableStream<{ type: string }>([...answer]) };
      },
    };
    await drain(await fromAiSdk(v2).chatCompletion(withUrls));
    const tool = prompts[0]?.[2] as { content: { output: unknown }[] };
    expect(tool.content[0]?.output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'the screen' },
        { type: 'media', data: PNG, mediaType: 'image/png' },
        { type: 'text', text: '[file application/pdf, at https://example.com/r.pdf]' },
      ],
    });
  });
});

const geminiAnswer = [
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text: 'A white pixel.' }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
  })}\r\n\r\n`,
];

describe('fromAiSdk with images and files, through real provider packages on loopback servers', () => {
  it("@ai-sdk/google sends a user PDF and a tool's image as inline data", async () => {
    const server = await serve(geminiAnswer);
    const model = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'k' })('gemini-2.5-flash');
    await drain(await fromAiSdk(model).chatCompletion(toolImageConversation()));
    const { contents } = firstBody(server) as { contents: { role: string; parts: object[] }[] };
    expect(contents[0]).toEqual({
      role: 'user',
      parts: [{ text: 'What is on screen? The spec:' }, { inlineData: { mimeType: 'application/pdf', data: PDF } }],
    });
    const results = contents[2];
    expect(results?.parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
    expect(JSON.stringify(results)).toContain('the screen');
  });

  it('@ai-sdk/openai-compatible sends a user image and PDF as content parts', async () => {
    const server = await serve([fixture('openai/text.sse')]);
    const provider = createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1`, includeUsage: true });
    await drain(await fromAiSdk(provider.chatModel('gpt-4.1-mini')).chatCompletion(toolImageConversation()));
    const { messages } = firstBody(server) as { messages: { role: string; content: unknown }[] };
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is on screen? The spec:' },
        { type: 'file', file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
      ],
    });
  });

  it('fails a file type the provider refuses with a model_error naming it, not a crash', async () => {
    const server = await serve([fixture('openai/text.sse')]);
    const provider = createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1` });
    const zip = Buffer.from('PK').toString('base64');
    const run = fromAiSdk(provider.chatModel('m')).chatCompletion([
      { role: 'user', content: [{ type: 'file', mediaType: 'application/zip', data: zip }] },
    ]);
    await expect(drain(await run)).rejects.toMatchObject({
      reason: 'model_error',
      message: expect.stringContaining('application/zip'),
    });
    expect(server.requests).toHaveLength(0);
  });
});
