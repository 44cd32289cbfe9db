import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import type { Message } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';
import { NOTES, noteOf, PDF, PNG, toolImageConversation } from '../support/parts.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function input(messages: Message[]): Promise<unknown[]> {
  server = await startFakeServer([{ chunks: [fixture('openai-responses/text.sse')] }]);
  const client = new OpenAIClient({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    api: 'responses',
    retry: { maxRetries: 0 },
  });
  await drain(client.chatCompletion(messages));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return (received.body as { input: unknown[] }).input;
}

describe('OpenAIClient (responses) with images and files', () => {
  it("sends a user PDF as input_file, and a tool's image in its function_call_output as a list", async () => {
    expect(await input(toolImageConversation())).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is on screen? The spec:' },
          { type: 'input_file', filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` },
        ],
      },
      { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
      { type: 'function_call', call_id: 'call_2', name: 'read_file', arguments: '{"path":"a.txt"}' },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'the screen' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_2', output: 'hello' },
      { role: 'user', content: 'Answer now.' },
    ]);
  });

  it('passes image and file URLs through, sends a text file as a file, and notes a type it does not read', async () => {
    const audio = Buffer.from('RIFF').toString('base64');
    const [user] = await input([
      {
        role: 'user',
        content: [
          { type: 'image', mediaType: 'image/webp', url: 'https://example.com/a.webp' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/spec.pdf', name: 'spec.pdf' },
          { type: 'file', mediaType: 'text/plain', data: NOTES },
          { type: 'file', mediaType: 'audio/wav', data: audio, name: 'hum.wav' },
        ],
      },
    ]);
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'input_image', image_url: 'https://example.com/a.webp', detail: 'auto' },
        { type: 'input_file', file_url: 'https://example.com/spec.pdf', filename: 'spec.pdf' },
        { type: 'input_file', filename: 'file.txt', file_data: `data:text/plain;base64,${NOTES}` },
        { type: 'input_text', text: noteOf('file', 'audio/wav', audio, 'hum.wav') },
      ],
    });
  });
});
