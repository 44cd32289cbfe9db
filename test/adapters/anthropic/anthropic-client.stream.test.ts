import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import { StreamEvent } from '../../../src/index.js';
import { textOf } from '../../../src/machine.js';
import { drain, drainError } from '../support/drain.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(name: string, size = 7) {
  server = await startFakeServer([{ chunks: splitBytes(fixture(`anthropic/${name}`), size) }]);
  return new AnthropicClient({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: server.url });
}

const user = [{ role: 'user' as const, content: 'hi' }];

describe('AnthropicClient streaming', () => {
  it('streams text split at awkward byte boundaries, with usage from message_start and message_delta', async () => {
    for (const size of [1, 5, 13]) {
      const events = await drain((await serve('text.sse', size)).chatCompletion(user));
      const text = events.filter((e) => e.type === 'text_delta').map((e) => textOf(e.textDelta));
      expect(text.join('')).toBe('Café au lait costs 3 €; 日本語 ✓');
      expect(events.at(-1)).toEqual(
        StreamEvent.messageComplete(
          { promptTokens: 25, completionTokens: 15, totalTokens: 40, cachedPromptTokens: 0, cacheWriteTokens: 0 },
          'stop',
        ),
      );
      await server?.close();
    }
  });

  it('accumulates input_json_delta fragments into whole tool calls, streaming them as argument deltas, counting cached input', async () => {
    const events = await drain((await serve('tool-use.sse', 6)).chatCompletion(user));
    const piece = (callId: string, argumentsDelta: string) =>
      StreamEvent.toolCallDelta({ callId, name: 'read_file', argumentsDelta });
    expect(events).toEqual([
      StreamEvent.textDelta("I'll read both files."),
      piece('toolu_01A', '{"pa'),
      piece('toolu_01A', 'th": "a'),
      piece('toolu_01A', 'pp.py"}'),
      StreamEvent.toolCallComplete({ callId: 'toolu_01A', name: 'read_file', arguments: { path: 'app.py' } }),
      piece('toolu_02B', '{"path":'),
      piece('toolu_02B', ' "notes.md"}'),
      StreamEvent.toolCallComplete({ callId: 'toolu_02B', name: 'read_file', arguments: { path: 'notes.md' } }),
      StreamEvent.messageComplete(
        { promptTokens: 572, completionTokens: 89, totalTokens: 661, cachedPromptTokens: 100, cacheWriteTokens: 0 },
        'tool_calls',
      ),
    ]);
  });

  it('passes tool input that is not JSON on as the raw text', async () => {
    const events = (await drain((await serve('invalid-arguments.sse')).chatCompletion(user))).filter(
      (e) => e.type !== 'tool_call_delta',
    );
    expect(events[0]).toEqual(
      StreamEvent.toolCallComplete({ callId: 'toolu_03C', name: 'read_file', arguments: '{"path": "app.py' }),
    );
    expect(events.at(-1)?.finishReason).toBe('length');
  });

  it('streams a thinking block as reasoning deltas, then one reasoning part with its signature, before the text', async () => {
    const events = await drain((await serve('thinking.sse')).chatCompletion(user));
    expect(events.slice(0, 3)).toEqual([
      StreamEvent.reasoningDelta('The user wants a greeting.'),
      StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'anthropic',
        text: 'The user wants a greeting.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
      }),
      StreamEvent.textDelta('Hello!'),
    ]);
  });

  it('skips event types it does not know, and refuses a known one of the wrong shape', async () => {
    const unknown = 'event: future_event\ndata: {"type":"future_event","x":1}\n\n';
    server = await startFakeServer([{ chunks: [unknown, fixture('anthropic/text.sse')] }]);
    const client = new AnthropicClient({ model: 'm', apiKey: 'k', baseURL: server.url });
    expect((await drain(client.chatCompletion(user))).at(-1)?.type).toBe('message_complete');
    await server.close();
    const broken = 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta"}}\n\n';
    server = await startFakeServer([{ chunks: [broken] }]);
    const again = new AnthropicClient({ model: 'm', apiKey: 'k', baseURL: server.url });
    const error = await drainError(again.chatCompletion(user));
    expect(error.message).toMatch(/unexpected event in the stream \(content_block_delta\.index: /);
  });
});
