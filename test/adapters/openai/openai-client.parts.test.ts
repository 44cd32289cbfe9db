import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import { defineTool, HarnessError, type Message, ToolResult } from '../../../src/index.js';
import type { ContentPart } from '../../../src/tools/index.js';
import { collect, makeAgent } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';
import { drain, drainError } from '../support/drain.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';
import { NOTES, NOTES_TEXT, noteOf, PDF, PNG, screenshot, toolImageConversation } from '../support/parts.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string): OpenAIClient {
  return new OpenAIClient({ model: 'gpt-4.1-mini', apiKey: 'sk-test', baseURL: `${url}/v1`, retry: { maxRetries: 0 } });
}

async function sent(messages: Message[]): Promise<unknown[]> {
  server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
  await drain(client(server.url).chatCompletion(messages));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return (received.body as { messages: unknown[] }).messages;
}

const pngUrl = `data:image/png;base64,${PNG}`;

describe('OpenAIClient (chat) with images and files', () => {
  it("sends a user PDF as a file part, and a tool's image in one user message after the turn's results", async () => {
    expect(await sent(toolImageConversation())).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on screen? The spec:' },
          { type: 'file', file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: `the screen\n${noteOf('image', 'image/png', PNG)} (attached to the user message after the tool results)`,
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'hello' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by tool call call_1:' },
          { type: 'image_url', image_url: { url: pngUrl } },
        ],
      },
      { role: 'user', content: 'Answer now.' },
    ]);
  });

  it('puts the images of several results after the last of them, each under its call', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'look twice' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { callId: 'a', name: 'screenshot', arguments: {} },
          { callId: 'b', name: 'screenshot', arguments: {} },
        ],
      },
      { role: 'tool', callId: 'a', content: screenshot },
      {
        role: 'tool',
        callId: 'b',
        content: [
          { type: 'image', mediaType: 'image/png', url: 'https://example.com/b.png' },
          { type: 'file', mediaType: 'application/pdf', data: PDF },
        ],
      },
    ];
    const body = (await sent(messages)) as { role: string; content: unknown }[];
    expect(body.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(body.at(-1)?.content).toEqual([
      { type: 'text', text: 'Images returned by tool call a:' },
      { type: 'image_url', image_url: { url: pngUrl } },
      { type: 'text', text: 'Images and files returned by tool call b:' },
      { type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
      { type: 'file', file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
  });

  it('passes an image URL through, sends a text file as its text, and notes a file type it cannot take', async () => {
    const zip = Buffer.from('PK\u0003\u0004').toString('base64');
    const parts: ContentPart[] = [
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
      { type: 'file', mediaType: 'text/markdown', data: NOTES, name: 'notes.md' },
      { type: 'file', mediaType: 'application/zip', data: zip, name: 'logs.zip' },
    ];
    const [user] = await sent([{ role: 'user', content: parts }]);
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        { type: 'text', text: `${noteOf('file', 'text/markdown', NOTES, 'notes.md')}\n${NOTES_TEXT}` },
        { type: 'text', text: noteOf('file', 'application/zip', zip, 'logs.zip') },
      ],
    });
  });

  it('sends a user message of text parts only as a string, which every compatible server takes', async () => {
    const [user] = await sent([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
    ]);
    expect(user).toEqual({ role: 'user', content: 'first\nsecond' });
  });

  it('refuses a file URL before any request, naming the message and the part', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
    const error = await drainError(
      client(server.url).chatCompletion([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'summarise' },
            { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/spec.pdf' },
          ],
        },
      ]),
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ reason: 'invalid_content' });
    expect(error.message).toContain(
      'message 0 (user) part 1: Chat Completions takes no file URL (application/pdf at https://example.com/spec.pdf)',
    );
    expect(server.requests).toHaveLength(0);
  });
});

/** A tool named read_file (the fixture's calls) whose result is parts. */
function partsTool(parts: (path: string) => ContentPart[]) {
  return () =>
    defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      kind: 'read',
      schema: z.object({ path: z.string() }),
      execute: ({ params }) => ToolResult.content(parts(params.path)),
    });
}

/** The body of the server's request `n`. */
function bodyOf(n: number): { messages: { role: string; content: unknown }[] } {
  const body = server?.requests[n]?.body;
  if (body === undefined) throw new Error(`no request ${n}`);
  return body as { messages: { role: string; content: unknown }[] };
}

async function agentOn(answers: FakeResponse[], parts: (path: string) => ContentPart[]) {
  server = await startFakeServer(answers);
  return makeAgent(client(server.url), [partsTool(parts)], { cwd: tempWorkspace(), maxTurns: 3 });
}

describe('an agent on the OpenAI chat client, with tools that return images and files', () => {
  it("sends the tools' images in one user message after both results of the turn", async () => {
    const { agent } = await agentOn(
      [{ chunks: [fixture('openai/parallel-tool-calls.sse')] }, { chunks: [fixture('openai/text.sse')] }],
      (path) => [
        { type: 'text', text: path },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    );
    const events = await collect(agent.run('Look at both.'));
    expect(events.at(-1)?.type).toBe('agent_end');
    const { messages } = bodyOf(1);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Images returned by tool call call_A1:' },
      { type: 'image_url', image_url: { url: pngUrl } },
      { type: 'text', text: 'Images returned by tool call call_B2:' },
      { type: 'image_url', image_url: { url: pngUrl } },
    ]);
  });

  it('ends the run with model_error naming the part when a tool returned a file URL, without sending it', async () => {
    const { agent } = await agentOn(
      [{ chunks: [fixture('openai/parallel-tool-calls.sse')] }, { chunks: [fixture('openai/text.sse')] }],
      () => [{ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/report.pdf' }],
    );
    const events = await collect(agent.run('Read both.'));
    expect(events.at(-1)).toMatchObject({
      type: 'agent_error',
      data: {
        reason: 'model_error',
        message: expect.stringContaining(
          '(result of tool call call_A1) part 0: Chat Completions takes no file URL (application/pdf at https://example.com/report.pdf)',
        ),
      },
    });
    expect(server?.requests).toHaveLength(1);
  });

  it('ends the run with model_error when the task holds a file URL, and sends nothing', async () => {
    const { agent } = await agentOn([{ chunks: [fixture('openai/text.sse')] }], () => []);
    const events = await collect(
      agent.run([
        { type: 'text', text: 'summarise' },
        { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/spec.pdf', name: 'spec.pdf' },
      ]),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'agent_error',
      data: {
        reason: 'model_error',
        message: expect.stringContaining('(user) part 1: Chat Completions takes no file URL'),
      },
    });
    expect(server?.requests).toHaveLength(0);
  });
});
