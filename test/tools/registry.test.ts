import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Config, defineTool, HarnessError, ToolKind, ToolRegistry, ToolResult } from '../../src/index.js';
import type { ToolLike } from '../../src/tools/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo text.',
  kind: ToolKind.READ,
  schema: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  execute: ({ params }) => params.text.repeat(params.times ?? 1),
});

function registry(config = new Config()) {
  return new ToolRegistry(config).register(echo);
}

describe('ToolRegistry', () => {
  it('validates and runs a call', async () => {
    expect(await registry().invoke('echo', { text: 'ab', times: 2 })).toEqual({ success: true, output: 'abab' });
    expect(await registry().invoke('echo', '{"text":"x"}')).toEqual({ success: true, output: 'x' });
  });

  it('names an unknown tool and lists the available ones', async () => {
    expect(await registry().invoke('missing', {})).toEqual(
      ToolResult.error("Unknown tool 'missing'. Available tools: echo"),
    );
    expect((await new ToolRegistry().invoke('x', {})).error).toBe("Unknown tool 'x'. Available tools: none");
  });

  it('reports invalid parameters with the field path and the problem', async () => {
    const result = await registry().invoke('echo', { text: 5, times: 0 });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Invalid parameters: text: .*string.*; times: .*/);
  });

  it('reports arguments that are not JSON', async () => {
    const result = await registry().invoke('echo', '{"text": ');
    expect(result.error).toMatch(/^Invalid parameters: arguments are not valid JSON \(/);
  });

  it('turns a throwing tool into an internal error, sync or async', async () => {
    const reg = new ToolRegistry()
      .register(
        defineTool({
          name: 'sync',
          description: '',
          kind: 'other',
          schema: z.object({}),
          execute: () => {
            throw new Error('sync boom');
          },
        }),
      )
      .register(
        defineTool({
          name: 'async',
          description: '',
          kind: 'other',
          schema: z.object({}),
          execute: async () => Promise.reject(new Error('async boom')),
        }),
      );
    expect(await reg.invoke('sync', {})).toEqual(ToolResult.error('Internal error: sync boom'));
    expect(await reg.invoke('async', {})).toEqual(ToolResult.error('Internal error: async boom'));
  });

  it('times out a slow tool and aborts its signal', async () => {
    let aborted = false;
    const slow = defineTool({
      name: 'slow',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: ({ signal }) =>
        new Promise<string>(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    });
    const reg = new ToolRegistry(new Config({ toolTimeoutMs: 10 })).register(slow);
    expect(await reg.invoke('slow', {})).toEqual(ToolResult.error("Tool 'slow' timed out after 10 ms"));
    expect(aborted).toBe(true);
  });

  it('answers an abort at once even when the tool ignores its signal', async () => {
    const ignoring = defineTool({
      name: 'deaf',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => new Promise<string>(() => {}),
    });
    const reg = new ToolRegistry().register(ignoring);
    const controller = new AbortController();
    const pending = reg.invoke('deaf', {}, { signal: controller.signal });
    controller.abort('user stop');
    expect(await pending).toEqual(ToolResult.error("Tool 'deaf' was aborted: user stop"));
    const already = await reg.invoke('deaf', {}, { signal: controller.signal });
    expect(already.error).toBe("Tool 'deaf' was aborted before it started: user stop");
  });

  it('answers every call in flight on one shared signal when it aborts, and none after it settled', async () => {
    const deaf = defineTool({
      name: 'deaf',
      description: '',
      kind: 'read',
      schema: z.object({ n: z.number() }),
      execute: ({ params }) => (params.n === 0 ? 'quick' : new Promise<string>(() => {})),
    });
    const reg = new ToolRegistry().register(deaf);
    const controller = new AbortController();
    const quick = await reg.invoke('deaf', { n: 0 }, { signal: controller.signal });
    const pending = [1, 2, 3].map((n) => reg.invoke('deaf', { n }, { signal: controller.signal }));
    controller.abort('run over');
    expect(quick).toEqual(ToolResult.success('quick'));
    expect(await Promise.all(pending)).toEqual(
      [1, 2, 3].map(() => ToolResult.error("Tool 'deaf' was aborted: run over")),
    );
  });

  it('turns a schema refinement that throws into an internal error instead of rejecting', async () => {
    const picky = defineTool({
      name: 'picky',
      description: '',
      kind: 'read',
      schema: z.object({ n: z.number() }).refine(() => {
        throw new Error('refinement broke');
      }),
      execute: () => 'never',
    });
    const result = await new ToolRegistry().register(picky).invoke('picky', { n: 1 });
    expect(result).toEqual(ToolResult.error('Internal error: refinement broke'));
  });

  it('answers arguments of the wrong type from JavaScript callers with a result, never a throw', async () => {
    const reg = registry();
    const nullOptions = reg.invoke('echo', { text: 'a' }, null as unknown as undefined);
    expect(await nullOptions).toEqual(ToolResult.success('a'));
    const symbolName = () => reg.invoke(Symbol('echo') as unknown as string, {});
    expect(symbolName).not.toThrow();
    expect((await symbolName()).error).toMatch(/^Internal error: /);
  });

  it('turns a result whose then() throws into an internal error, never a rejection', async () => {
    const treacherous: ToolLike = {
      name: 'treacherous',
      description: '',
      kind: 'other',
      schema: z.object({}),
      execute: () =>
        ({
          // biome-ignore lint/suspicious/noThenProperty: the point of the test
          then() {
            throw new Error('bad then');
          },
        }) as unknown as Promise<ToolResult>,
    };
    const reg = new ToolRegistry().register(treacherous);
    await expect(reg.invoke('treacherous', {})).resolves.toEqual(ToolResult.error('Internal error: bad then'));
  });

  it("keeps defineTool's execute a promise for its callers, rejecting where the function throws", async () => {
    const sync = defineTool({ name: 's', description: '', kind: 'read', schema: z.object({}), execute: () => 'ok' });
    const invocation = { params: {}, callId: 'c', cwd: '.', signal: new AbortController().signal };
    const answer = sync.execute(invocation);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toEqual(ToolResult.success('ok'));
    const thrower = defineTool({
      name: 't',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => {
        throw new Error('no');
      },
    });
    await expect(thrower.execute(invocation)).rejects.toThrow('no');
  });

  it('lets a replaced execute of a defineTool tool take effect', async () => {
    const tool = defineTool({
      name: 'x',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => 'original',
    });
    const replaced = { ...tool, execute: async () => ToolResult.success('replaced') };
    const mutated = defineTool({
      name: 'y',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => 'original',
    });
    mutated.execute = async () => ToolResult.success('mutated');
    const reg = new ToolRegistry().register(replaced).register(mutated);
    expect(reg.invokeEager('x', {})).toBeInstanceOf(Promise);
    expect(await reg.invoke('x', {})).toEqual(ToolResult.success('replaced'));
    expect(await reg.invoke('y', {})).toEqual(ToolResult.success('mutated'));
  });

  it('invokeEager answers at once what needs no waiting, and a promise only for a tool that is async', async () => {
    const slow = defineTool({
      name: 'slow',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: async () => 'y'.repeat(60),
    });
    const reg = new ToolRegistry(new Config({ maxToolOutputChars: 50 })).register(echo).register(slow);
    expect(reg.invokeEager('echo', { text: 'ab' })).toEqual(ToolResult.success('ab'));
    expect(reg.invokeEager('missing', {})).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Unknown tool/),
    });
    expect(reg.invokeEager('echo', { text: 1 })).toMatchObject({ error: expect.stringMatching(/^Invalid parameters/) });
    const sync = reg.invokeEager('echo', { text: 'x'.repeat(60) });
    expect(sync).not.toBeInstanceOf(Promise);
    expect((sync as ToolResult).output).toBe(`${'x'.repeat(50)}\n[truncated 10 characters]`);
    const pending = reg.invokeEager('slow', {});
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).output).toBe(`${'y'.repeat(50)}\n[truncated 10 characters]`);
    expect(reg.invoke('echo', { text: 'ab' })).toBeInstanceOf(Promise); // invoke always promises
  });

  it('caps long output with a marker that says how much was cut', async () => {
    const big = defineTool({
      name: 'big',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => 'x'.repeat(2_000_000),
    });
    const result = await new ToolRegistry().register(big).invoke('big', {});
    expect(result.output?.length).toBeLessThan(100_100);
    expect(result.output?.startsWith('x'.repeat(100_000))).toBe(true);
    expect(result.output?.endsWith('[truncated 1,900,000 characters]')).toBe(true);
  });

  it('caps a long error result the same way, and leaves one within the cap as it is', async () => {
    const failing = defineTool({
      name: 'failing',
      description: '',
      kind: 'read',
      schema: z.object({ n: z.number() }),
      execute: ({ params }) => ToolResult.error('f'.repeat(params.n)),
    });
    const reg = new ToolRegistry(new Config({ maxToolOutputChars: 10 })).register(failing);
    expect(await reg.invoke('failing', { n: 25 })).toEqual({
      success: false,
      error: `${'f'.repeat(10)}\n[truncated 15 characters]`,
    });
    expect(await reg.invoke('failing', { n: 10 })).toEqual({ success: false, error: 'f'.repeat(10) });
    expect((await reg.invoke('nope', {})).error).toBe('Unknown to\n[truncated 35 characters]');
  });

  it('refuses duplicate and malformed tool names', () => {
    expect(() => registry().register(echo)).toThrowError(/already registered/);
    const bad = { ...echo, name: 'has space' };
    expect(() => new ToolRegistry().register(bad)).toThrowError(HarnessError);
  });

  it('describes tools to models with JSON Schema generated from zod', () => {
    const [definition] = registry().definitions();
    expect(definition).toEqual({
      name: 'echo',
      description: 'Echo text.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: expect.any(Number) } },
        required: ['text'],
      },
    });
  });

  it('treats read tools, and tools that say so, as concurrency-safe', () => {
    const reg = registry().register(
      defineTool({ name: 'w', description: '', kind: 'write', schema: z.object({}), execute: () => '' }),
    );
    expect(reg.isConcurrencySafe('echo')).toBe(true);
    expect(reg.isConcurrencySafe('w')).toBe(false);
    expect(reg.isConcurrencySafe('unknown')).toBe(false);
    expect(reg.has('w')).toBe(true);
    expect(reg.has('unknown')).toBe(false);
  });
});
