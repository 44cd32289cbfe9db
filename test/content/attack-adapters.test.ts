import { describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../src/anthropic.js';
import { HarnessError, type Message } from '../../src/index.js';
import { OpenAIClient } from '../../src/openai.js';

const base = { apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' };
const chat = new OpenAIClient({ model: 'gpt-4.1-mini', ...base });
const responses = new OpenAIClient({ model: 'gpt-4.1-mini', api: 'responses', ...base });
const anthropic = new AnthropicClient({ model: 'claude-sonnet-4-5', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9' });

const secretFile: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'summarise' },
      { type: 'file', mediaType: 'application/pdf', url: 'https://me:hunter2@docs.test/report.pdf' },
    ],
  },
];

function thrown(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected a throw');
}

describe('attack: adapters given parts they cannot take', () => {
  it("Chat Completions refuses a file URL naming the part, without the URL's password", () => {
    const error = thrown(() => chat.wireRequest(secretFile));
    expect(error.reason).toBe('invalid_content');
    expect(error.message).toMatch(/part 1/);
    expect(error.message).toContain('docs.test/report.pdf');
    expect(error.message).not.toContain('hunter2');
  });

  it.each([
    ['responses', responses],
    ['anthropic', anthropic],
  ])('%s passes a file URL through unchanged (the provider fetches it)', (_, client) => {
    expect(JSON.stringify(client.wireRequest(secretFile))).toContain('https://me:hunter2@docs.test/report.pdf');
  });

  it.each([
    ['chat', chat],
    ['responses', responses],
    ['anthropic', anthropic],
  ])('%s turns a file type it cannot read into a note, never a crash', (_, client) => {
    const zip: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'file', mediaType: 'application/zip', name: 'a.zip', data: Buffer.from('PK').toString('base64') },
        ],
      },
    ];
    expect(JSON.stringify(client.wireRequest(zip))).toContain('[file \\"a.zip\\" application/zip, 2 bytes]');
  });
});
