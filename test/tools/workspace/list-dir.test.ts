import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { ListDirTool } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

describe('list_dir', () => {
  it('lists type, size and name of each entry, sorted, folders marked with /', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'b.txt': 'hello', 'a.md': '', 'src/x.ts': 'x', '.env': 'A=1' });
    symlinkSync('b.txt', join(ws, 'link'));
    const result = await call('list_dir', {});
    expect(result).toEqual({
      success: true,
      output: [
        'file             3  .env',
        'file             0  a.md',
        'file             5  b.txt',
        'symlink          -  link',
        'dir              -  src/',
      ].join('\n'),
    });
  });

  it('lists a subfolder by its relative path', async () => {
    const { files, call } = workspaceFixture();
    files({ 'src/deep/y.ts': 'yy', 'src/x.ts': 'x' });
    expect((await call('list_dir', { path: 'src' })).output).toBe(
      'dir              -  deep/\nfile             1  x.ts',
    );
  });

  it('says so for an empty folder, a missing one and a file', async () => {
    const { ws, files, call } = workspaceFixture();
    mkdirSync(join(ws, 'empty'));
    files({ 'f.txt': 'x' });
    expect((await call('list_dir', { path: 'empty' })).output).toBe('(empty folder: empty)');
    expect((await call('list_dir', { path: 'nope' })).error).toBe('Folder not found: nope');
    expect((await call('list_dir', { path: 'f.txt' })).error).toBe('Not a folder: f.txt');
  });

  it('caps the listing with a marker that counts the entries left out', async () => {
    const { ws, files } = workspaceFixture();
    files(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, ''])));
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new ListDirTool(config, { maxEntries: 5 }));
    const lines = ((await registry.invoke('list_dir', {})).output ?? '').split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[4]).toMatch(/f04\.txt$/);
    expect(lines[5]).toBe('[7 more entries not shown]');
  });

  it('quotes a name that holds a line break, so one entry stays one line', async () => {
    const { files, call } = workspaceFixture();
    files({ 'two\nlines': '' });
    expect((await call('list_dir', {})).output).toBe('file             0  "two\\nlines"');
  });
});
