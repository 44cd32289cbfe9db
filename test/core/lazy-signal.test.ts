import { inspect, isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LazyAbort, withLazySignal } from '../../src/core/lazy-abort.js';
import { Agent, Config, defineTool, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';

/** Counts the reads of `abort.signal` (each read of a `LazyAbort`'s signal may make its controller). */
function countSignalReads(abort: LazyAbort): { count: number } {
  const reads = { count: 0 };
  const real = Object.getOwnPropertyDescriptor(LazyAbort.prototype, 'signal')?.get;
  Object.defineProperty(abort, 'signal', {
    get() {
      reads.count++;
      return real?.call(abort);
    },
  });
  return reads;
}

describe('withLazySignal', () => {
  it('makes the signal only when it is read, and it is the abort’s own', () => {
    const abort = new LazyAbort();
    const reads = countSignalReads(abort);
    const target = withLazySignal({ callId: 'c1' }, abort);
    expect(reads.count).toBe(0);
    expect(target.signal).toBe(target.signal);
    expect(target.signal.aborted).toBe(false);
    abort.abort('stop');
    expect(target.signal.aborted).toBe(true);
    expect(target.signal.reason).toBe('stop');
    expect(reads.count).toBeGreaterThan(0);
  });

  it('is an own, enumerable property: a spread copies the signal', () => {
    const abort = new LazyAbort();
    const target = withLazySignal({ params: { a: 1 }, callId: 'c1' }, abort);
    expect(Object.keys(target)).toEqual(['params', 'callId', 'signal']);
    const copy = { ...target, callId: 'c2' };
    expect(copy.signal).toBe(abort.signal);
    expect(Object.getOwnPropertyDescriptor(copy, 'signal')?.value).toBe(abort.signal);
    expect(JSON.stringify(target)).toBe('{"params":{"a":1},"callId":"c1","signal":{}}');
  });

  it('looks like a plain object with a `signal` to equality checks, `util.inspect` and `delete`', () => {
    const abort = new LazyAbort();
    const target = withLazySignal({ callId: 'c1' }, abort);
    expect(target).toEqual({ callId: 'c1', signal: abort.signal });
    expect(isDeepStrictEqual(target, { callId: 'c1', signal: abort.signal })).toBe(true);
    expect(inspect(target)).not.toContain('Symbol');
    expect(Object.getOwnPropertySymbols({ ...target })).toEqual([]);
    expect(delete (target as { signal?: AbortSignal }).signal).toBe(true);
    expect('signal' in target).toBe(false);
  });

  it('says what went wrong when its getter is copied onto another object', () => {
    const target = withLazySignal({ callId: 'c1' }, new LazyAbort());
    const copy = {};
    for (const key of Object.keys(target)) {
      Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(target, key) as PropertyDescriptor);
    }
    expect(() => (copy as { signal: AbortSignal }).signal).toThrow(/copied without its object/);
  });

  it('shares one getter between objects (an object literal’s getter is a new function per object)', () => {
    const one = withLazySignal({}, new LazyAbort());
    const two = withLazySignal({}, new LazyAbort());
    const getter = (value: object) => Object.getOwnPropertyDescriptor(value, 'signal')?.get;
    expect(getter(one)).toBeTypeOf('function');
    expect(getter(one)).toBe(getter(two));
    expect(one.signal).not.toBe(two.signal);
  });
});

describe('the objects a run hands out with a signal', () => {
  it('give every tool invocation and every model request the same signal getter', async () => {
    const invocations: object[] = [];
    const requests: object[] = [];
    const config = new Config({ maxTurns: 4 });
    const registry = new ToolRegistry(config).register(
      defineTool({
        name: 'note',
        description: 'keeps its invocation',
        kind: 'read',
        schema: z.object({}),
        execute: (invocation) => {
          invocations.push(invocation);
          return invocation.signal.aborted ? 'aborted' : 'ok';
        },
      }),
    );
    const call = (callId: string) => ({
      type: 'tool_call_complete' as const,
      toolCall: { callId, name: 'note', arguments: {} },
    });
    const client = new ScriptedClient([
      [call('c1'), { type: 'message_complete' }],
      [call('c2'), { type: 'message_complete' }],
      [{ type: 'text_delta', textDelta: 'done' }, { type: 'message_complete' }],
    ]);
    const recording = {
      chatCompletion: (...args: Parameters<ScriptedClient['chatCompletion']>) => {
        if (args[2] !== undefined) requests.push(args[2]);
        return client.chatCompletion(...args);
      },
    };
    const agent = new Agent(config, { session: new Session(config, { client: recording, registry }) });
    for await (const _ of agent.run('go')) {
      // drain
    }
    const getter = (value: object) => Object.getOwnPropertyDescriptor(value, 'signal')?.get;
    expect(invocations).toHaveLength(2);
    expect(requests).toHaveLength(3);
    expect(getter(invocations[0] as object)).toBeTypeOf('function');
    expect(getter(invocations[1] as object)).toBe(getter(invocations[0] as object));
    expect(getter(requests[0] as object)).toBe(getter(invocations[0] as object));
  });
});

describe('LazyAbort.watch', () => {
  it('calls each watcher once on abort, after the signal’s own listeners, and not after unwatching', () => {
    const abort = new LazyAbort();
    const order: string[] = [];
    abort.signal.addEventListener('abort', () => order.push('listener'));
    abort.watch(() => order.push('first'));
    const stop = abort.watch(() => order.push('stopped'));
    abort.watch(() => order.push('last'));
    stop();
    abort.abort('why');
    abort.abort('again');
    expect(order).toEqual(['listener', 'first', 'last']);
    expect(abort.reason).toBe('why');
  });

  it('does nothing for an abort that already happened', () => {
    const abort = new LazyAbort();
    abort.abort('done');
    let called = 0;
    abort.watch(() => called++)();
    expect(called).toBe(0);
  });

  it('ends a call that ignores its signal when the abort came while the tool itself ran', async () => {
    const abort = new LazyAbort();
    let keys: string[] = [];
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'hang',
        description: 'aborted from inside, never answers',
        kind: 'read',
        schema: z.object({}),
        execute: (invocation) => {
          keys = Object.keys(invocation);
          abort.abort('stopped meanwhile');
          return new Promise<string>(() => {});
        },
      }),
    );
    const result = await registry.invokeEager('hang', {}, { callId: 'c1', signal: abort });
    expect(result).toEqual({ success: false, error: "Tool 'hang' was aborted: stopped meanwhile" });
    expect(keys).toEqual(['params', 'callId', 'cwd', 'signal', 'run']);
  });

  it('lets the registry end a call that ignores its signal without ever making the signal', async () => {
    const abort = new LazyAbort();
    const reads = countSignalReads(abort);
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'hang',
        description: 'never answers',
        kind: 'read',
        schema: z.object({}),
        execute: () => new Promise<string>(() => {}),
      }),
    );
    const pending = registry.invokeEager('hang', {}, { callId: 'c1', signal: abort });
    abort.abort('the run stopped');
    expect(await pending).toEqual({ success: false, error: "Tool 'hang' was aborted: the run stopped" });
    expect(reads.count).toBe(0);
  });
});
