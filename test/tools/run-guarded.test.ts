import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LazyAbort } from '../../src/core/lazy-abort.js';
import { Config, defineTool, ToolRegistry, ToolResult } from '../../src/index.js';

/** A tool whose `execute` answers with whatever `answer` gives (a misbehaving tool, for some). */
function answering(name: string, answer: (signal: AbortSignal) => unknown) {
  return defineTool({
    name,
    description: '',
    kind: 'read',
    schema: z.object({}),
    execute: ({ signal }) => answer(signal) as string,
  });
}

const hanging = answering('hang', () => new Promise<string>(() => {}));

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('a tool call, as the registry runs it', () => {
  it('answers a tool that returns plain JSON with a success whose output is its stable JSON', async () => {
    const cases: [unknown, string][] = [
      [{ b: [2, { d: null }], a: 1 }, '{"a":1,"b":[2,{"d":null}]}'],
      [[3, 'x'], '[3,"x"]'],
      [42, '42'],
      [false, 'false'],
      [null, 'null'],
      [{ success: 'yes', output: 'x' }, '{"output":"x","success":"yes"}'],
    ];
    for (const [value, json] of cases) {
      const sync = new ToolRegistry().register(answering('plain', () => value));
      expect(await sync.invoke('plain', {}), `${json}, sync`).toEqual(ToolResult.success(json));
      const async = new ToolRegistry().register(answering('plain', async () => value));
      expect(await async.invoke('plain', {}), `${json}, async`).toEqual(ToolResult.success(json));
    }
  });

  it('answers a tool that returns neither text, a ToolResult nor plain JSON with an internal error naming what it returned', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'undefined'],
      [() => 1, 'a function'],
      [new Map([[1, 2]]), 'a Map'],
      [Number.NaN, 'a number'],
    ];
    for (const [value, kind] of cases) {
      const expected = ToolResult.error(
        `Internal error: tool 'odd' returned ${kind}; return text, a ToolResult or plain JSON`,
      );
      const sync = new ToolRegistry().register(answering('odd', () => value));
      expect(await sync.invoke('odd', {}), `${kind}, sync`).toEqual(expected);
      const async = new ToolRegistry().register(answering('odd', async () => value));
      expect(await async.invoke('odd', {}), `${kind}, async`).toEqual(expected);
    }
  });

  it('answers a tool that returns an object with no JSON form (a cycle) with an internal error, never a throw', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = await new ToolRegistry().register(answering('loop', () => cyclic)).invoke('loop', {});
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Internal error: tool 'loop' returned a value with no JSON form: .*circular/);
  });

  it('takes a ToolResult-shaped answer as it is, with an empty output or a default error when one is missing', async () => {
    const invoke = (value: unknown) =>
      new ToolRegistry().register(answering('shaped', () => value)).invoke('shaped', {});
    expect(await invoke({ success: true, output: 'fine' })).toEqual(ToolResult.success('fine'));
    expect(await invoke({ success: true })).toEqual(ToolResult.success(''));
    expect(await invoke({ success: false, error: 'broke' })).toEqual(ToolResult.error('broke'));
    expect(await invoke({ success: false })).toEqual(ToolResult.error('failed without a message'));
  });

  it('names the reason of an abort, whether the caller gave text, an Error or nothing', async () => {
    const reg = new ToolRegistry().register(hanging);
    const abortedWith = async (...reason: unknown[]) => {
      const controller = new AbortController();
      const pending = reg.invoke('hang', {}, { signal: controller.signal });
      controller.abort(...reason);
      return [(await pending).error, (await reg.invoke('hang', {}, { signal: controller.signal })).error];
    };
    expect(await abortedWith('user pressed stop')).toEqual([
      "Tool 'hang' was aborted: user pressed stop",
      "Tool 'hang' was aborted before it started: user pressed stop",
    ]);
    expect(await abortedWith(new Error('user left'))).toEqual([
      "Tool 'hang' was aborted: user left",
      "Tool 'hang' was aborted before it started: user left",
    ]);
    expect(await abortedWith()).toEqual([
      "Tool 'hang' was aborted: This operation was aborted",
      "Tool 'hang' was aborted before it started: This operation was aborted",
    ]);
  });

  it("tells the tool through its signal why it must stop: 'timeout' at its time limit, the caller's reason on an abort", async () => {
    const signals: AbortSignal[] = [];
    const reg = new ToolRegistry(new Config({ toolTimeoutMs: 10 })).register(
      answering('hang', (signal) => {
        signals.push(signal);
        return new Promise<string>(() => {});
      }),
    );
    await reg.invoke('hang', {});
    const controller = new AbortController();
    const pending = reg.invoke('hang', {}, { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort('user pressed stop');
    await pending;
    expect(signals.map((signal) => [signal.aborted, signal.reason])).toEqual([
      [true, 'timeout'],
      [true, 'user pressed stop'],
    ]);
  });

  it("leaves a tool's signal alone and no timer behind once the call finished within its time limit", async () => {
    let seen: AbortSignal | undefined;
    const reg = new ToolRegistry(new Config({ toolTimeoutMs: 60_000 })).register(
      answering('quick', async (signal) => {
        seen = signal;
        return 'done';
      }),
    );
    const before = activeTimers();
    expect(await reg.invoke('quick', {})).toEqual(ToolResult.success('done'));
    // A timer left running would keep a CLI run alive for the whole time limit after its end.
    expect(activeTimers()).toBe(before);
    expect(seen?.aborted).toBe(false);
  });

  it('leaves no timer behind when the call was aborted while its own execute ran', async () => {
    const abort = new LazyAbort();
    const reg = new ToolRegistry(new Config({ toolTimeoutMs: 60_000 })).register(
      answering('abortsItself', () => {
        abort.abort('stopped meanwhile');
        return new Promise<string>(() => {});
      }),
    );
    const before = activeTimers();
    expect(await reg.invokeEager('abortsItself', {}, { callId: 'c1', signal: abort })).toEqual(
      ToolResult.error("Tool 'abortsItself' was aborted: stopped meanwhile"),
    );
    expect(activeTimers()).toBe(before);
  });
});
