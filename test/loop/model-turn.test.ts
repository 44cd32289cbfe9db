import { describe, expect, it } from 'vitest';
import { readModelStream } from '../../src/agent/read-model-stream.js';
import { HarnessError, StreamEvent } from '../../src/index.js';
import { tokenUsage } from '../../src/prices.js';

const turn = [
  StreamEvent.textDelta('Hel'),
  StreamEvent.textDelta(''),
  StreamEvent.textDelta('lo'),
  StreamEvent.toolCallComplete({ callId: 'a', name: 'look', arguments: { path: 'x' } }),
  StreamEvent.messageComplete(tokenUsage(5, 2), 'tool_calls'),
  StreamEvent.textDelta('after the end'),
];

async function* streamed(events: readonly StreamEvent[]): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
}

async function read(events: Iterable<StreamEvent> | AsyncIterable<StreamEvent>) {
  const deltas: string[] = [];
  const result = await readModelStream(events, async (delta) => {
    deltas.push(delta);
  });
  return { result, deltas };
}

describe('readModelStream', () => {
  it('adds up a turn the same way from an array and from an async stream, stopping at message_complete', async () => {
    const fromArray = await read(turn);
    expect(fromArray.deltas).toEqual(['Hel', 'lo']);
    expect(fromArray.result).toEqual({
      text: 'Hello',
      toolCalls: [{ callId: 'a', name: 'look', arguments: { path: 'x' } }],
      usage: tokenUsage(5, 2),
      finishReason: 'tool_calls',
    });
    expect(await read(streamed(turn))).toEqual(fromArray);
  });

  it('waits for each text delta to be handled before reading on (backpressure), also from an array', async () => {
    const order: string[] = [];
    const events = {
      *[Symbol.iterator]() {
        order.push('read 1');
        yield StreamEvent.textDelta('a');
        order.push('read 2');
        yield StreamEvent.messageComplete();
      },
    };
    await readModelStream(events, async (delta) => {
      await Promise.resolve();
      order.push(`handled ${delta}`);
    });
    expect(order).toEqual(['read 1', 'handled a', 'read 2']);
  });

  it('fails with model_error on an error event or a tool call without an id, from either kind of stream', async () => {
    for (const source of [(e: StreamEvent[]) => e, (e: StreamEvent[]) => streamed(e)]) {
      await expect(read(source([StreamEvent.error('overloaded')]))).rejects.toThrow(HarnessError);
      const nameless = StreamEvent.toolCallComplete({ callId: '', name: 'look', arguments: {} });
      await expect(read(source([nameless]))).rejects.toMatchObject({ reason: 'model_error' });
    }
  });

  it('awaits elements that are promises in a synchronous iterable, as for await does', async () => {
    const promised = [StreamEvent.textDelta('hello'), StreamEvent.messageComplete()].map((e) => Promise.resolve(e));
    const { result, deltas } = await read(promised as unknown as StreamEvent[]);
    expect(deltas).toEqual(['hello']);
    expect(result.text).toBe('hello');
  });

  it('takes usage without totalTokens or in snake_case, and refuses broken counts as a model_error', async () => {
    const usageOf = async (usage: unknown) =>
      (await read([{ type: 'message_complete', usage } as unknown as StreamEvent])).result.usage;
    expect(await usageOf({ promptTokens: 5, completionTokens: 2 })).toEqual(tokenUsage(5, 2));
    expect(await usageOf({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })).toEqual(tokenUsage(5, 2));
    for (const broken of [{ promptTokens: 1.5, completionTokens: 2 }, { promptTokens: -1, completionTokens: 2 }, {}]) {
      await expect(usageOf(broken)).rejects.toMatchObject({
        reason: 'model_error',
        message: expect.stringMatching(
          /^the model reported invalid usage: promptTokens must be a non-negative integer/,
        ),
      });
    }
  });
});
