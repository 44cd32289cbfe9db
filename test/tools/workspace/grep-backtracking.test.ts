import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { GrepTool } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

// `(a+)+$` against a run of `a`s that ends in `b` backtracks exponentially: on the thread that ran
// it, nothing (no timer, no abort) could stop it.
const HOSTILE = { pattern: '(a+)+$' };
const file = { 'a.txt': `ok line\n${'a'.repeat(64)}b\nlast line\n` };

describe('grep with a pattern that backtracks catastrophically', () => {
  it('is stopped by abort(): the call answers aborted and the process goes on', async () => {
    const { files, call } = workspaceFixture();
    files(file);
    const controller = new AbortController();
    const result = call('grep', HOSTILE, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 200);
    expect(await result).toMatchObject({ success: false, error: expect.stringMatching(/^Tool 'grep' was aborted/) });
    // The event loop is free again: a plain search answers.
    expect((await call('grep', { pattern: 'last' })).output).toBe('a.txt:3:last line\n[1 matching line in 1 file]');
  });

  it('is stopped by its own search time limit, with the marker', async () => {
    const { files, ws } = workspaceFixture();
    files({ 'a.txt': `aaa\n${'a'.repeat(64)}b\n` });
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new GrepTool(config, { maxScanMs: 300 }));
    const result = await registry.invoke('grep', HOSTILE);
    expect(result.success).toBe(true);
    expect(result.output).toContain('[stopped after 0.3 s of searching;');
  });

  it('is stopped by the tool time limit of the registry', async () => {
    const { files, ws } = workspaceFixture();
    files(file);
    const config = new Config({ cwd: ws, toolTimeoutMs: 300 });
    const registry = new ToolRegistry(config).register(new GrepTool(config));
    expect(await registry.invoke('grep', HOSTILE)).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Tool 'grep' timed out after 300 ms/),
    });
  });
});
