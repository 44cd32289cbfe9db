import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAtomically } from '../../../src/tools/workspace/atomic-write.js';
import { workspaceFixture } from './workspace-fixture.js';

describe('write_file', () => {
  it('creates a file and its missing folders, reporting the bytes written', async () => {
    const { ws, call } = workspaceFixture();
    expect(await call('write_file', { path: 'src/deep/er/note.md', content: 'héllo\n' })).toEqual({
      success: true,
      output: 'Wrote 7 bytes to src/deep/er/note.md (created)',
    });
    expect(readFileSync(join(ws, 'src/deep/er/note.md'), 'utf8')).toBe('héllo\n');
  });

  it('replaces an existing file whole, keeping its permission bits', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'run.sh': 'old content that is longer\n' });
    chmodSync(join(ws, 'run.sh'), 0o750);
    expect((await call('write_file', { path: 'run.sh', content: 'new\n' })).output).toBe(
      'Wrote 4 bytes to run.sh (replaced)',
    );
    expect(readFileSync(join(ws, 'run.sh'), 'utf8')).toBe('new\n');
    expect(statSync(join(ws, 'run.sh')).mode & 0o777).toBe(0o750);
  });

  it('writes an empty file', async () => {
    const { ws, call } = workspaceFixture();
    expect((await call('write_file', { path: 'empty', content: '' })).output).toBe('Wrote 0 bytes to empty (created)');
    expect(readFileSync(join(ws, 'empty'), 'utf8')).toBe('');
  });

  it('swaps in a new file by rename: a reader of the old file still sees all of it, and no temp file is left', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'data.txt': 'old old old' });
    const fd = openSync(join(ws, 'data.txt'), 'r');
    try {
      await call('write_file', { path: 'data.txt', content: 'new' });
      const buffer = Buffer.alloc(64);
      const read = readSync(fd, buffer, 0, 64, 0);
      expect(buffer.subarray(0, read).toString()).toBe('old old old');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(join(ws, 'data.txt'), 'utf8')).toBe('new');
    expect(readdirSync(ws)).toEqual(['data.txt']);
  });

  it('writes through a symlink that stays inside the workspace to its target', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'real.txt': 'a' });
    symlinkSync('real.txt', join(ws, 'link.txt'));
    expect((await call('write_file', { path: 'link.txt', content: 'b' })).output).toBe(
      'Wrote 1 byte to real.txt (replaced)',
    );
    expect(readFileSync(join(ws, 'link.txt'), 'utf8')).toBe('b');
  });

  it('refuses a folder, the workspace itself, and a path through a file', async () => {
    const { ws, files, call } = workspaceFixture();
    mkdirSync(join(ws, 'dir'));
    files({ 'f.txt': 'x' });
    expect((await call('write_file', { path: 'dir', content: '' })).error).toBe("path 'dir' is a folder");
    expect((await call('write_file', { path: '.', content: '' })).error).toBe(
      "path '.' is the workspace folder itself",
    );
    expect((await call('write_file', { path: 'f.txt/x', content: '' })).error).toBe(
      "path 'f.txt/x' goes through 'f.txt', a file",
    );
  });
});

describe('writeAtomically', () => {
  it('removes its temp file and leaves the target alone when the final rename fails', async () => {
    const { ws } = workspaceFixture();
    mkdirSync(join(ws, 'occupied'));
    mkdirSync(join(ws, 'occupied', 'child'));
    const target = { ok: true, path: join(ws, 'occupied'), root: ws, exists: false, missing: [] } as const;
    await expect(writeAtomically(target, 'data')).rejects.toThrow();
    expect(readdirSync(ws)).toEqual(['occupied']);
  });

  it('refuses to rename into a folder that is no longer the real one it was given', async () => {
    const { root, ws } = workspaceFixture();
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(ws, 'swapped'));
    const target = { ok: true, path: join(ws, 'swapped', 'f.txt'), root: ws, exists: false, missing: [] } as const;
    await expect(writeAtomically(target, 'data')).rejects.toThrow(/changed while writing/);
    expect(readdirSync(join(root, 'elsewhere'))).toEqual([]);
  });
});
