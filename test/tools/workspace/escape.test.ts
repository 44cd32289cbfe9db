import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessageContent } from '../../../src/tools/index.js';
import { openRegularFile } from '../../../src/tools/workspace/open-regular-file.js';
import { workspaceFixture } from './workspace-fixture.js';

/**
 * Every file tool against the ways out of the workspace. The fixture's `root` holds the
 * workspace `ws` and, beside it, what must stay unreachable: `secret.txt` and `outside/`.
 */
function escapeFixture() {
  const fixture = workspaceFixture();
  const { root, ws } = fixture;
  writeFileSync(join(root, 'secret.txt'), 'TOP SECRET\n');
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'inner.txt'), 'TOP SECRET inner\n');
  symlinkSync(join(root, 'secret.txt'), join(ws, 'file-link'));
  symlinkSync(join(root, 'outside'), join(ws, 'dir-link'));
  symlinkSync('/dev/zero', join(ws, 'zero'));
  symlinkSync(join(root, 'planted.txt'), join(ws, 'dangling'));
  writeFileSync(join(ws, 'ok.txt'), 'fine\n');
  return fixture;
}

/** What must stay as it was outside the workspace. */
function outsideUntouched(root: string): void {
  expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  expect(readdirSync(join(root, 'outside'))).toEqual(['inner.txt']);
  expect(readFileSync(join(root, 'outside', 'inner.txt'), 'utf8')).toBe('TOP SECRET inner\n');
  expect(readdirSync(root).sort()).toEqual(['outside', 'secret.txt', 'ws']);
}

/** A call for each file tool that tries to reach `path`. */
function attempts(path: string): Array<[string, object]> {
  return [
    ['read_file', { path }],
    ['list_dir', { path }],
    ['grep', { pattern: 'SECRET', path }],
    ['write_file', { path, content: 'pwned' }],
    ['edit_file', { path, old: 'TOP', new: 'pwned' }],
  ];
}

describe('every file tool stays inside the workspace', () => {
  it.each([
    ['.. out', '../secret.txt'],
    ['.. into a sibling folder', '../outside/inner.txt'],
    ['.. through a subfolder', 'sub/../../secret.txt'],
    ['the parent itself', '..'],
  ])('refuses %s (%s)', async (_name, path) => {
    const { root, call } = escapeFixture();
    for (const [tool, params] of attempts(path)) {
      const result = await call(tool, params);
      expect(toolMessageContent(result), tool).toMatch(/^Error: path '.*' is outside the workspace$/);
    }
    outsideUntouched(root);
  });

  it('refuses absolute paths outside the workspace', async () => {
    const { root, call } = escapeFixture();
    for (const path of [join(root, 'secret.txt'), join(root, 'outside'), '/etc/passwd', '/']) {
      for (const [tool, params] of attempts(path)) {
        expect((await call(tool, params)).error, `${tool} ${path}`).toMatch(/is outside the workspace$/);
      }
    }
    outsideUntouched(root);
  });

  it('refuses a symlink to a file outside, and one to a device', async () => {
    const { root, call } = escapeFixture();
    for (const path of ['file-link', 'zero']) {
      for (const [tool, params] of attempts(path)) {
        expect((await call(tool, params)).error, `${tool} ${path}`).toMatch(/leads outside the workspace \(symlink\)$/);
      }
    }
    outsideUntouched(root);
  });

  it('refuses a symlinked folder that points outside, and anything below it', async () => {
    const { root, call } = escapeFixture();
    for (const path of ['dir-link', 'dir-link/inner.txt', 'dir-link/new.txt', 'dir-link/sub/deeper/new.txt']) {
      for (const [tool, params] of attempts(path)) {
        expect((await call(tool, params)).error, `${tool} ${path}`).toMatch(/leads outside the workspace \(symlink\)$/);
      }
    }
    outsideUntouched(root);
  });

  it('never lists or searches what symlinks point to when walking', async () => {
    const { root, call } = escapeFixture();
    expect((await call('glob', { pattern: '**/*' })).output).toBe('ok.txt');
    expect((await call('grep', { pattern: 'SECRET' })).output).toBe('No matches for /SECRET/ in . (1 file searched)');
    for (const pattern of ['dir-link/*', 'dir-link/**/*.txt', 'file-link']) {
      expect((await call('glob', { pattern })).error, pattern).toMatch(/leads outside the workspace \(symlink\)$/);
    }
    outsideUntouched(root);
  });

  it('refuses glob patterns that climb out or are absolute', async () => {
    const { call } = escapeFixture();
    expect((await call('glob', { pattern: '../*' })).error).toMatch(/outside the workspace/);
    expect((await call('glob', { pattern: '**/../../*' })).error).toMatch(/outside the workspace/);
    expect((await call('glob', { pattern: '/etc/*' })).error).toMatch(/is absolute/);
    expect((await call('grep', { pattern: 'x', glob: '../**' })).error).toMatch(/outside the workspace/);
  });

  it('refuses NUL bytes in paths and patterns', async () => {
    const { root, call } = escapeFixture();
    for (const [tool, params] of attempts('ok.txt\0../../secret.txt')) {
      expect((await call(tool, params)).error, tool).toBe('path must be a non-empty string without NUL');
    }
    expect((await call('glob', { pattern: 'ok\0*' })).error).toBe('pattern must not contain NUL');
    outsideUntouched(root);
  });
});

describe('a symlink to a file that does not exist (yet) outside', () => {
  it('is never written through, so nothing is planted outside', async () => {
    const { root, call } = escapeFixture();
    expect((await call('write_file', { path: 'dangling', content: 'planted' })).error).toBe(
      "path 'dangling' is a symlink to nothing",
    );
    expect((await call('edit_file', { path: 'dangling', old: 'a', new: 'b' })).error).toMatch(/outside the workspace/);
    expect((await call('read_file', { path: 'dangling' })).error).toMatch(/outside the workspace/);
    outsideUntouched(root);
  });
});

describe('openRegularFile, the open every reading tool goes through', () => {
  it('refuses a path that no longer resolves inside the workspace once open (a folder swapped for a symlink)', async () => {
    const { root, ws } = escapeFixture();
    const opened = await openRegularFile(ws, join(ws, 'dir-link', 'inner.txt'), 'dir-link/inner.txt');
    expect(opened).toEqual({ ok: false, problem: "path 'dir-link/inner.txt' changed while it was opened; refused" });
    outsideUntouched(root);
  });

  it('refuses a symlink in the last place (a file swapped for a link)', async () => {
    const { ws } = escapeFixture();
    symlinkSync(join(ws, 'ok.txt'), join(ws, 'inside-link'));
    expect(await openRegularFile(ws, join(ws, 'inside-link'), 'inside-link')).toEqual({
      ok: false,
      problem: 'Not a file: inside-link',
    });
  });
});

describe('special and large files', () => {
  it('refuses a FIFO without blocking on it', { timeout: 5000 }, async () => {
    const { ws, call } = escapeFixture();
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect((await call('read_file', { path: 'pipe' })).error).toBe('Not a file: pipe');
    expect((await call('edit_file', { path: 'pipe', old: 'a', new: 'b' })).error).toBe('Not a file: pipe');
    expect((await call('grep', { pattern: 'a', path: 'pipe' })).error).toBe('Not a file or folder: pipe');
    expect((await call('write_file', { path: 'pipe', content: 'x' })).error).toBe("path 'pipe' is not a regular file");
    expect((await call('list_dir', { path: 'pipe' })).error).toBe('Not a folder: pipe');
    // Walks pass it by.
    expect((await call('grep', { pattern: 'fine' })).output).toBe('ok.txt:1:fine\n[1 matching line in 1 file]');
    expect((await call('glob', { pattern: '*' })).output).toBe('ok.txt');
    expect((await call('list_dir', {})).output).toMatch(/^other\s+-\s+pipe$/m);
  });

  it('caps what a 50 MB text file yields, and refuses to edit it', async () => {
    const { ws, call } = escapeFixture();
    const line = `${'a'.repeat(99)}\n`;
    writeFileSync(join(ws, 'big.txt'), `${line.repeat(500_000)}needle\n`);
    const read = (await call('read_file', { path: 'big.txt' })).output ?? '';
    expect(read.length).toBeLessThan(101_000);
    expect(read).toMatch(/\n\[truncated [\d,]+ characters\]$/);
    const grep = (await call('grep', { pattern: 'needle' })).output ?? '';
    expect(grep).toBe(
      'No matches for /needle/ in . (1 file searched)\n' +
        '[stopped after reading 20 MB, the limit of one search; narrow pattern, path or glob to see the rest]',
    );
    expect((await call('edit_file', { path: 'big.txt', old: 'needle', new: 'x' })).error).toBe(
      `File too large to edit: big.txt is ${50_000_007} bytes (limit ${10 * 1024 * 1024})`,
    );
  });

  it('refuses to read a file over the read limit at all', async () => {
    const { ws, call } = escapeFixture();
    writeFileSync(join(ws, 'huge.txt'), '');
    truncateSync(join(ws, 'huge.txt'), 60 * 1024 * 1024); // sparse: no 60 MB written
    expect((await call('read_file', { path: 'huge.txt' })).error).toBe(
      `File too large: huge.txt is ${60 * 1024 * 1024} bytes (limit ${50 * 1024 * 1024})`,
    );
  });

  it('refuses binary files where text is expected and skips them in searches', async () => {
    const { ws, call } = escapeFixture();
    writeFileSync(join(ws, 'blob.bin'), Buffer.from([0x66, 0x69, 0x6e, 0x65, 0, 0xff]));
    expect((await call('read_file', { path: 'blob.bin' })).error).toBe('Binary file: blob.bin');
    expect((await call('edit_file', { path: 'blob.bin', old: 'fine', new: 'x' })).error).toBe('Binary file: blob.bin');
    expect((await call('grep', { pattern: 'fine', path: 'blob.bin' })).error).toBe('Binary file: blob.bin');
    expect((await call('grep', { pattern: 'fine' })).output).toBe(
      'ok.txt:1:fine\n[1 matching line in 1 file]\n[1 binary file skipped]',
    );
    expect(existsSync(join(ws, 'blob.bin'))).toBe(true);
  });
});
