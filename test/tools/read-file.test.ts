import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ReadFileTool, ToolRegistry } from '../../src/index.js';
import { tempWorkspace } from '../support/workspace.js';

function setup() {
  const root = tempWorkspace();
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(root, 'secret.txt'), 'top secret\n');
  writeFileSync(join(workspace, 'app.py'), 'def add(a, b):\n    return a + b\n');
  const config = new Config({ cwd: workspace });
  const registry = new ToolRegistry(config).register(new ReadFileTool(config));
  return { root, workspace, read: (params: object) => registry.invoke('read_file', params) };
}

describe('ReadFileTool', () => {
  it('reads a workspace file with line numbers', async () => {
    const { read } = setup();
    expect(await read({ path: 'app.py' })).toEqual({
      success: true,
      output: '     1\tdef add(a, b):\n     2\t    return a + b',
    });
  });

  it('pages with offset and limit, saying where to read on', async () => {
    const { workspace, read } = setup();
    writeFileSync(join(workspace, 'long.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const page = await read({ path: 'long.txt', offset: 3, limit: 2 });
    expect(page.output).toBe('     3\tline 3\n     4\tline 4\n[lines 3-4 of 10; use offset 5 to read on]');
  });

  it('refuses paths outside the workspace: .., absolute, and symlinks out', async () => {
    const { root, workspace, read } = setup();
    symlinkSync(join(root, 'secret.txt'), join(workspace, 'link.txt'));
    for (const path of ['../secret.txt', join(root, 'secret.txt'), 'link.txt']) {
      const result = await read({ path });
      expect(result.success).toBe(false);
      expect(result.error).toMatch(/outside the workspace/);
    }
  });

  it('accepts names that merely start with two dots, and refuses paths that climb out through ..', async () => {
    const { workspace, read } = setup();
    writeFileSync(join(workspace, '..dotdot.txt'), 'inside');
    expect((await read({ path: '..dotdot.txt' })).output).toContain('inside');
    for (const path of ['..', 'sub/../../secret.txt']) {
      expect((await read({ path })).error).toMatch(/outside the workspace/);
    }
  });

  it('accepts an absolute path inside the workspace', async () => {
    const { workspace, read } = setup();
    expect((await read({ path: join(workspace, 'app.py') })).success).toBe(true);
  });

  it('reports missing files, directories and binary files as errors', async () => {
    const { workspace, read } = setup();
    mkdirSync(join(workspace, 'dir'));
    writeFileSync(join(workspace, 'bin.dat'), Buffer.from([1, 0, 2]));
    expect((await read({ path: 'nope.txt' })).error).toBe('File not found: nope.txt');
    expect((await read({ path: 'dir' })).error).toBe('Not a file: dir');
    expect((await read({ path: 'bin.dat' })).error).toBe('Binary file: bin.dat');
  });

  it('validates its parameters', async () => {
    const { read } = setup();
    expect((await read({ path: 'app.py', offset: 0 })).error).toMatch(/^Invalid parameters: offset: /);
  });
});
