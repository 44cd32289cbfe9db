import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import type { Message } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';
import { NOTES, NOTES_TEXT, noteOf, PDF, PNG, screenshot, toolImageConversation } from '../support/parts.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function body(messages: Message[], cache?: false): Promise<{ messages: unknown[] }> {
  server = await startFakeServer([{ chunks: [fixture('anthropic/text.sse')] }]);
  const client = new AnthropicClient({
    model: 'claude-haiku-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    retry: { maxRetries: 0 },
    ...(cache === false ? { cache } : {}),
  });
  await drain(client.chatCompletion(messages));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return received.body as { messages: unknown[] };
}

const pngBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };

describe('AnthropicClient with images and files', () => {
  it("sends a user PDF as a document block, and a tool's image as its tool_result's content blocks", async () => {
    const { messages } = await body(toolImageConversation(), false);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on screen? The spec:' },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'spec.pdf',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'screenshot', input: {} },
          { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'a.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'the screen' }, pngBlock] },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'hello' },
          { type: 'text', text: 'Answer now.' },
        ],
      },
    ]);
  });

  it('passes image and PDF URLs through, sends a text file (JSON too) as a text document, and notes other files', async () => {
    const sheet = Buffer.from('PK\u0003\u0004').toString('base64');
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const { messages } = await body(
      [
        {
          role: 'user',
          content: [
            { type: 'image', mediaType: 'image/gif', url: 'https://example.com/a.gif' },
            { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/spec.pdf' },
            { type: 'file', mediaType: 'text/markdown', data: NOTES, name: 'notes.md' },
            { type: 'file', mediaType: 'application/json', data: NOTES, name: 'notes.json' },
            { type: 'file', mediaType: 'text/plain', url: 'https://example.com/notes.txt' },
            { type: 'file', mediaType: xlsx, data: sheet, name: 'q3.xlsx' },
          ],
        },
      ],
      false,
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.gif' } },
          { type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: NOTES_TEXT }, title: 'notes.md' },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: NOTES_TEXT },
            title: 'notes.json',
          },
          { type: 'text', text: '[file text/plain, at https://example.com/notes.txt]' },
          { type: 'text', text: noteOf('file', xlsx, sheet, 'q3.xlsx') },
        ],
      },
    ]);
  });

  it('places the last prompt-cache breakpoint on a tool_result whose content is blocks, and on an image', async () => {
    const withTool = await body([
      { role: 'user', content: 'look' },
      { role: 'assistant', content: '', toolCalls: [{ callId: 't1', name: 'screenshot', arguments: {} }] },
      { role: 'tool', callId: 't1', content: screenshot },
    ]);
    expect(withTool.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [{ type: 'text', text: 'the screen' }, pngBlock],
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
    await server?.close();
    const withImage = await body([{ role: 'user', content: screenshot }]);
    expect(withImage.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'the screen' },
          { ...pngBlock, cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('keeps an error result as text with is_error, and a result of empty text parts as text', async () => {
    const { messages } = await body(
      [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { callId: 'e', name: 'screenshot', arguments: {} },
            { callId: 'x', name: 'screenshot', arguments: {} },
          ],
        },
        { role: 'tool', callId: 'e', content: 'Error: no display' },
        { role: 'tool', callId: 'x', content: [{ type: 'text', text: '' }] },
      ],
      false,
    );
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'e', content: 'Error: no display', is_error: true },
        { type: 'tool_result', tool_use_id: 'x', content: '' },
      ],
    });
  });
});
