import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Config,
  defineTool,
  ReadFileTool,
  Tool,
  type ToolInvocation,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { toolMessageContent } from '../../src/tools/index.js';
import { Checkpoint, workspace } from '../support/runs.js';

class Exploding extends Tool {
  name = 'explode';
  description = 'Raises.';
  kind = ToolKind.SHELL;
  schema = z.object({ reason: z.string() });
  async execute(): Promise<ToolResult> {
    throw new Error('fixture boom');
  }
}

function registryWith(config = new Config({ cwd: workspace() })) {
  const registry = new ToolRegistry(config);
  registry.register(new Checkpoint(config));
  registry.register(new Exploding(config));
  return registry;
}

describe('contract §6 ToolRegistry.invoke never throws', () => {
  it('an unknown tool: the message names it and lists the tools', async () => {
    const result = await registryWith().invoke('list_dir', {});
    expect(result.success).toBe(false);
    expect(result.error).toContain('list_dir');
    expect(result.error).toContain('checkpoint');
    expect(result.error).toContain('explode');
    expect(String(toolMessageContent(result)).startsWith('Error: ')).toBe(true);
  });

  it('invalid parameters: "Invalid parameters: <field path>: <problem>"', async () => {
    const result = await registryWith().invoke('checkpoint', { step: 'not-an-integer' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Invalid parameters: step: \S/);
  });

  it('invalid parameters name a nested field path', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'nested',
        description: 'Nested args.',
        kind: ToolKind.READ,
        schema: z.object({ opts: z.object({ depth: z.number() }) }),
        execute: async () => ToolResult.success('ok'),
      }),
    );
    const result = await registry.invoke('nested', { opts: { depth: 'deep' } });
    expect(result.error).toMatch(/^Invalid parameters: opts\.depth: /);
  });

  it('arguments that are not valid JSON become an error result', async () => {
    const result = await registryWith().invoke('checkpoint', '{"step": 1');
    expect(result.success).toBe(false);
    expect(toolMessageContent(result)).toMatch(/^Error: /);
    expect(result.error).toContain('JSON');
  });

  it('arguments given as a JSON string are parsed', async () => {
    const result = await registryWith().invoke('checkpoint', '{"step": 2}');
    expect(result).toEqual({ success: true, output: 'step 2 complete' });
  });

  it('a throwing tool: "Internal error: <message>"', async () => {
    const result = await registryWith().invoke('explode', { reason: 'test' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Internal error: .*fixture boom/);
    expect(toolMessageContent(result)).toMatch(/^Error: Internal error/);
  });

  it('a tool that outlives its time limit becomes an error result and sees its signal aborted', async () => {
    const config = new Config({ cwd: workspace(), toolTimeoutMs: 5 });
    let aborted = false;
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'hang',
        description: 'Never finishes on its own.',
        kind: ToolKind.OTHER,
        schema: z.object({}),
        execute: ({ signal }) =>
          new Promise<string>((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve('late');
            });
          }),
      }),
    );
    const result = await registry.invoke('hang', {});
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/time/i);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(aborted).toBe(true);
  });

  it('an abort through the signal becomes an error result', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'hang',
        description: 'Waits forever.',
        kind: ToolKind.OTHER,
        schema: z.object({}),
        execute: () => new Promise<ToolResult>(() => {}),
      }),
    );
    const controller = new AbortController();
    const pending = registry.invoke('hang', {}, { signal: controller.signal });
    controller.abort('stop now');
    const result = await pending;
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/abort/i);
  });

  it('invocation carries validated params, callId, signal and cwd', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    let seen: ToolInvocation<{ n: number }> | undefined;
    registry.register(
      defineTool({
        name: 'probe',
        description: 'Records its invocation.',
        kind: ToolKind.READ,
        schema: z.object({ n: z.coerce.number() }),
        execute: async (invocation) => {
          seen = invocation;
          return ToolResult.success('ok');
        },
      }),
    );
    await registry.invoke('probe', { n: '3' }, { callId: 'call-9' });
    expect(seen?.params).toEqual({ n: 3 });
    expect(seen?.callId).toBe('call-9');
    expect(seen?.cwd).toBe(config.cwd);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('contract §6 definitions for the model', () => {
  it('gives name, description and JSON Schema parameters generated from zod', () => {
    const definitions = registryWith().definitions();
    const checkpoint = definitions.find((d) => d.name === 'checkpoint');
    expect(checkpoint?.description).toBe('Record one deterministic progress step.');
    expect(checkpoint?.parameters).toMatchObject({
      type: 'object',
      properties: { step: { type: 'integer' } },
      required: ['step'],
    });
  });

  it('get returns a registered tool by name', () => {
    expect(registryWith().get('checkpoint')?.name).toBe('checkpoint');
    expect(registryWith().get('nope')).toBeUndefined();
  });
});

describe('contract §6 size cap', () => {
  it('truncates with a visible marker that says how much was cut', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'huge',
        description: 'Returns 2,000,000 characters.',
        kind: ToolKind.READ,
        schema: z.object({}),
        execute: async () => ToolResult.success('x'.repeat(2_000_000)),
      }),
    );
    const result = await registry.invoke('huge', {});
    expect(result.success).toBe(true);
    expect(result.output).toContain('[truncated 1,900,000 characters]');
    expect(result.output?.startsWith('x'.repeat(100_000))).toBe(true);
  });

  it('leaves output within the cap untouched', async () => {
    const result = await registryWith().invoke('checkpoint', { step: 1 });
    expect(result.output).toBe('step 1 complete');
  });
});

describe('contract §6 ReadFileTool and workspace confinement', () => {
  function reader() {
    const root = join(workspace(), 'ws');
    mkdirSync(root);
    const config = new Config({ cwd: root });
    const registry = new ToolRegistry(config);
    registry.register(new ReadFileTool(config));
    return { root, registry };
  }

  it('reads a workspace file with line numbers', async () => {
    const { root, registry } = reader();
    writeFileSync(join(root, 'app.py'), 'def add(a, b):\n    return a + b\n');
    const result = await registry.invoke('read_file', { path: 'app.py' });
    expect(result.success).toBe(true);
    expect(result.output).toMatch(/1\D+def add\(a, b\):/);
    expect(result.output).toMatch(/2\D+return a \+ b/);
  });

  it('pages big files with offset and limit', async () => {
    const { root, registry } = reader();
    writeFileSync(join(root, 'big.txt'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await registry.invoke('read_file', { path: 'big.txt', offset: 10, limit: 3 });
    expect(result.output).toContain('line 10');
    expect(result.output).toContain('line 12');
    expect(result.output).not.toContain('line 13\n');
    expect(result.output).not.toMatch(/\bline 9\b/);
  });

  it('refuses .. escapes', async () => {
    const { root, registry } = reader();
    writeFileSync(join(root, '..', 'outside-secret.txt'), 'secret');
    const result = await registry.invoke('read_file', { path: '../outside-secret.txt' });
    expect(result.success).toBe(false);
    expect(result.output ?? '').not.toContain('secret');
  });

  it('refuses absolute paths outside the workspace', async () => {
    const { registry } = reader();
    const elsewhere = join(workspace(), 'secret.txt');
    writeFileSync(elsewhere, 'secret');
    const result = await registry.invoke('read_file', { path: elsewhere });
    expect(result.success).toBe(false);
    expect(result.output ?? '').not.toContain('secret');
  });

  it('refuses symlinks that lead out of the workspace', async () => {
    const { root, registry } = reader();
    const outside = workspace();
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'linkdir'));
    const viaFile = await registry.invoke('read_file', { path: 'link.txt' });
    const viaDir = await registry.invoke('read_file', { path: 'linkdir/secret.txt' });
    expect(viaFile.success).toBe(false);
    expect(viaDir.success).toBe(false);
    expect(`${viaFile.output}${viaDir.output}`).not.toContain('top secret');
  });

  it('a missing file is an error result, not a throw', async () => {
    const { registry } = reader();
    const result = await registry.invoke('read_file', { path: 'nope.txt' });
    expect(result.success).toBe(false);
    expect(result.error).toContain('nope.txt');
  });
});
