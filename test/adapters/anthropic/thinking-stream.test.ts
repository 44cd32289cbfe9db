import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import { StreamEvent } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';
import { thinkingBlocksOf } from './thinking-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];

async function stream(chunks: (string | Buffer)[]) {
  server = await startFakeServer([{ chunks }]);
  const client = new AnthropicClient({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: server.url });
  return drain(client.chatCompletion(user));
}

describe('AnthropicClient streaming extended thinking', () => {
  it('assembles thinking_delta pieces and the signature_delta into one reasoning part at content_block_stop', async () => {
    const events = await stream(splitBytes(fixture('anthropic/thinking-tool-use.sse'), 11));
    expect(events.slice(0, 3)).toEqual([
      StreamEvent.reasoningDelta('The user asks what app.py does.'),
      StreamEvent.reasoningDelta(' I should read it first.'),
      StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'anthropic',
        text: 'The user asks what app.py does. I should read it first.',
        signature: (thinkingBlocksOf(fixture('anthropic/thinking-tool-use.sse'))[0] as { signature: string }).signature,
      }),
    ]);
    expect(events[3]).toEqual(StreamEvent.textDelta('Let me read app.py.'));
  });

  it('passes redacted_thinking through as a redacted part, its data byte for byte', async () => {
    const events = await stream(splitBytes(fixture('anthropic/thinking-redacted-tool-use.sse'), 5));
    const [redacted] = thinkingBlocksOf(fixture('anthropic/thinking-redacted-tool-use.sse'));
    const parts = events.flatMap((e) => (e.type === 'reasoning_complete' ? [e.reasoning] : []));
    expect(parts[0]).toEqual({
      type: 'redacted_reasoning',
      provider: 'anthropic',
      data: (redacted as { data: string }).data,
    });
    expect(parts.map((part) => part?.type)).toEqual(['redacted_reasoning', 'reasoning']);
  });

  it('keeps interleaved thinking in the order of its blocks, between the tool calls', async () => {
    const events = await stream([fixture('anthropic/thinking-interleaved.sse')]);
    const order = events
      .filter((e) => e.type === 'reasoning_complete' || e.type === 'tool_call_complete')
      .map((e) => (e.type === 'tool_call_complete' ? e.toolCall?.callId : e.reasoning?.type));
    expect(order).toEqual(['reasoning', 'toolu_I1', 'redacted_reasoning', 'reasoning', 'toolu_I2']);
    expect(events.at(-1)?.finishReason).toBe('tool_calls');
  });

  it('reads cache reads and writes into the usage, the prompt total still including them', async () => {
    const first = await stream([fixture('anthropic/thinking-tool-use.sse')]);
    expect(first.at(-1)?.usage).toEqual({
      promptTokens: 1920,
      completionTokens: 95,
      totalTokens: 2015,
      cachedPromptTokens: 0,
      cacheWriteTokens: 1800,
    });
    await server?.close();
    const second = await stream([fixture('anthropic/thinking-redacted-tool-use.sse')]);
    expect(second.at(-1)?.usage).toEqual({
      promptTokens: 1990,
      completionTokens: 71,
      totalTokens: 2061,
      cachedPromptTokens: 1800,
      cacheWriteTokens: 150,
    });
  });

  it('takes thinking tokens from message_delta usage as reasoning tokens, and cache counts it repeats', async () => {
    const delta =
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},' +
      '"usage":{"input_tokens":10,"cache_read_input_tokens":300,"output_tokens":60,"output_tokens_details":{"thinking_tokens":42}}}\n\n';
    const text = fixture('anthropic/text.sse').toString('utf8');
    const events = await stream([text.replace(/event: message_delta\n[^\n]*\n\n/, delta)]);
    expect(events.at(-1)?.usage).toEqual({
      promptTokens: 310,
      completionTokens: 60,
      totalTokens: 370,
      cachedPromptTokens: 300,
      cacheWriteTokens: 0,
      reasoningTokens: 42,
    });
  });

  it('ignores event types, block types and delta types it does not know', async () => {
    const unknown = [
      'event: thinking_summary\ndata: {"type":"thinking_summary","index":0,"summary":"…"}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":7,"content_block":{"type":"future_block","x":1}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":7,"delta":{"type":"future_delta","y":2}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":7}\n\n',
    ].join('');
    const sse = fixture('anthropic/thinking-tool-use.sse').toString('utf8');
    const at = sse.indexOf('event: content_block_start');
    const withUnknown = await stream([sse.slice(0, at) + unknown + sse.slice(at)]);
    await server?.close();
    const plain = await stream([sse]);
    expect(withUnknown).toEqual(plain);
  });

  it('skips event types it does not know inside a thinking block, each with a debug note, and assembles the part as without them', async () => {
    const sse = fixture('anthropic/thinking.sse').toString('utf8');
    const plain = await stream([sse]);
    await server?.close();
    const future = (type: string) => `event: ${type}\ndata: ${JSON.stringify({ type, index: 0, x: 1 })}\n\n`;
    // One new type between the thinking and its signature, one (with a terminal escape) after the block.
    const mixed = sse
      .replace(
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta"',
        (at) => `${future('thinking_summary_delta')}${at}`,
      )
      .replace(
        'event: content_block_start\ndata: {"type":"content_block_start","index":1',
        (at) => `${future('block_note\u001b[2J')}${at}`,
      );
    expect(mixed.length).toBeGreaterThan(sse.length + 100);
    const saved = process.env.DEBUG;
    process.env.DEBUG = 'agent-harness:anthropic';
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    let events: Awaited<ReturnType<typeof stream>>;
    try {
      events = await stream(splitBytes(Buffer.from(mixed), 9));
    } finally {
      vi.restoreAllMocks();
      if (saved === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = saved;
    }
    expect(events).toEqual(plain);
    expect(written).toEqual([
      expect.stringMatching(
        /^agent-harness:anthropic .*: skipped a stream event of unknown type 'thinking_summary_delta'\n$/,
      ),
      expect.stringMatching(/^agent-harness:anthropic .*: skipped a stream event of unknown type 'block_note.*'\n$/),
    ]);
    // The note quotes what the server sent, made printable: no escape reaches the terminal.
    expect(written.join('')).not.toContain('\u001b');
  });
});
