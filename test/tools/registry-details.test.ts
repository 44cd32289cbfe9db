/**
 * The registry's details a caller relies on, one at a time: what it refuses to register and
 * says so, which limits and ids a call gets, and what a subclass that overrides `invoke` sees.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LazyAbort } from '../../src/core/lazy-abort.js';
import { Config, defineTool, ToolKind, ToolRegistry, ToolResult } from '../../src/index.js';
import type { InvokeOptions, ToolLike } from '../../src/tools/index.js';

const tool = (name: string, extra: Partial<ToolLike> = {}): ToolLike => ({
  ...defineTool({ name, description: `${name} tool`, kind: ToolKind.READ, schema: z.object({}), execute: () => name }),
  ...extra,
});

/** A tool that never answers by itself: only its time limit ends a call. */
const waiting = (name: string, extra: Partial<ToolLike> = {}) =>
  tool(name, { execute: () => new Promise<ToolResult>(() => {}), ...extra });

describe('ToolRegistry.register refuses, naming the tool', () => {
  it('a tool without a name', () => {
    expect(() => new ToolRegistry().register(tool('x', { name: undefined as unknown as string }))).toThrowError(
      'tool name undefined must match /^[A-Za-z0-9_-]{1,64}$/',
    );
  });

  it('a missing tool, with a HarnessError rather than a TypeError', () => {
    expect(() => new ToolRegistry().register(null as unknown as ToolLike)).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: expect.stringMatching(/^tool name undefined/) }),
    );
  });

  it('a name already registered by the caller (no source to show)', () => {
    const registry = new ToolRegistry().register(tool('a'));
    expect(() => registry.register(tool('a'))).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: "a tool named 'a' is already registered" }),
    );
  });

  it('the same name twice in one call, as invalid_argument', () => {
    expect(() => new ToolRegistry().register(tool('c'), tool('c'))).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: "two tools named 'c' in one register() call" }),
    );
  });

  it('a tool without a zod schema, or without execute', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(tool('n', { schema: undefined as unknown as z.ZodType }))).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: "tool 'n' needs a zod schema" }),
    );
    expect(() => registry.register(tool('s', { schema: {} as z.ZodType }))).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: "tool 's' needs a zod schema" }),
    );
    expect(() => registry.register(tool('e', { execute: 'run' as unknown as ToolLike['execute'] }))).toThrowError(
      expect.objectContaining({ reason: 'invalid_argument', message: "tool 'e' needs an execute function" }),
    );
    expect(registry.names()).toEqual([]);
  });
});

describe('ToolRegistry definitions', () => {
  it('offer the model a tool registered after they were first read', () => {
    const registry = new ToolRegistry().register(tool('a'));
    expect(registry.definitions().map((d) => d.name)).toEqual(['a']);
    registry.register(tool('b'));
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'b']);
  });
});

describe('ToolRegistry flags', () => {
  it("a tool's own concurrencySafe wins over its kind, both ways", () => {
    const registry = new ToolRegistry().register(
      tool('w', { kind: ToolKind.WRITE, concurrencySafe: true }),
      tool('r', { kind: ToolKind.READ, concurrencySafe: false }),
    );
    expect(registry.isConcurrencySafe('w')).toBe(true);
    expect(registry.isConcurrencySafe('r')).toBe(false);
  });

  it('a call may run again after a crash if the tool says so, or by default if it reads; never for an unknown tool', () => {
    const registry = new ToolRegistry().register(
      tool('r', { kind: ToolKind.READ }),
      tool('w', { kind: ToolKind.WRITE }),
      tool('put', { kind: ToolKind.WRITE, idempotent: true }),
      tool('rnd', { kind: ToolKind.READ, idempotent: false }),
    );
    expect(['r', 'w', 'put', 'rnd', 'missing'].map((name) => registry.isIdempotent(name))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('ToolRegistry.invoke', () => {
  it('lists every available tool for an unknown one', async () => {
    const registry = new ToolRegistry().register(tool('a'), tool('b'));
    expect((await registry.invoke('c', {})).error).toBe("Unknown tool 'c'. Available tools: a, b");
  });

  it('passes an empty call id when none is given, and the process directory without a config', async () => {
    let seen: { callId: string; cwd: string } | undefined;
    const probe = tool('probe', {
      execute: async ({ callId, cwd }) => {
        seen = { callId, cwd };
        return ToolResult.success('ok');
      },
    });
    await new ToolRegistry().register(probe).invoke('probe', {});
    expect(seen).toEqual({ callId: '', cwd: process.cwd() });
  });

  it("uses the call's time limit, else the tool's, else the config's", async () => {
    const registry = new ToolRegistry(new Config({ toolTimeoutMs: 30 })).register(
      waiting('own', { timeoutMs: 20 }),
      waiting('plain'),
    );
    expect((await registry.invoke('plain', {})).error).toBe("Tool 'plain' timed out after 30 ms");
    expect((await registry.invoke('own', {})).error).toBe("Tool 'own' timed out after 20 ms");
    expect((await registry.invoke('own', {}, { timeoutMs: 10 })).error).toBe("Tool 'own' timed out after 10 ms");
  });

  it('keeps output of exactly the cap whole, and cuts one character more', async () => {
    const registry = new ToolRegistry(new Config({ maxToolOutputChars: 5 })).register(
      tool('five', { execute: async () => ToolResult.success('12345') }),
      tool('six', { execute: async () => ToolResult.success('123456') }),
    );
    expect(await registry.invoke('five', {})).toEqual(ToolResult.success('12345'));
    expect((await registry.invoke('six', {})).output).toBe('12345\n[truncated 1 characters]');
  });
});

describe('ToolRegistry.invokeEager with a subclass that overrides invoke', () => {
  class Recording extends ToolRegistry {
    readonly seen: InvokeOptions[] = [];
    override invoke(name: string, params: unknown, options: InvokeOptions = {}): Promise<ToolResult> {
      this.seen.push(options);
      return super.invoke(name, params, options);
    }
  }

  it('calls the override, with the signal of a lazy abort made real', async () => {
    const registry = new Recording().register(tool('a'));
    const lazy = new LazyAbort();
    const answer = registry.invokeEager('a', {}, { callId: 'c1', signal: lazy });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual(ToolResult.success('a'));
    const [options] = registry.seen;
    expect(options?.callId).toBe('c1');
    expect(options?.signal).toBeInstanceOf(AbortSignal);
    expect(options?.signal).toBe(lazy.signal);
    const plain = new AbortController().signal;
    await registry.invokeEager('a', {}, { signal: plain });
    expect(registry.seen[1]?.signal).toBe(plain);
  });
});
