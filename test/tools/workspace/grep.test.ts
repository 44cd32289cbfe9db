import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { toolMessageContent } from '../../../src/tools/index.js';
import { GrepTool } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

const numbered = (count: number, match: (i: number) => boolean) =>
  Array.from({ length: count }, (_, i) => (match(i + 1) ? `hit ${i + 1}` : `line ${i + 1}`)).join('\n');

describe('grep', () => {
  it('prints path:line:text for each matching line, and a count', async () => {
    const { files, call } = workspaceFixture();
    files({ 'a.py': 'def add(a, b):\n    return a + b\n', 'src/b.py': 'x = add(1, 2)\r\n', 'c.txt': 'nothing' });
    expect(await call('grep', { pattern: 'add\\(' })).toEqual({
      success: true,
      output: 'a.py:1:def add(a, b):\nsrc/b.py:1:x = add(1, 2)\n[2 matching lines in 2 files]',
    });
  });

  it('says when nothing matches, with how many files it searched', async () => {
    const { files, call } = workspaceFixture();
    files({ 'a.txt': 'alpha', 'b.txt': 'beta' });
    expect((await call('grep', { pattern: 'gamma' })).output).toBe('No matches for /gamma/ in . (2 files searched)');
  });

  it('matches regardless of case on request', async () => {
    const { files, call } = workspaceFixture();
    files({ 'a.txt': 'Hello\nhello\nHELLO\n' });
    expect((await call('grep', { pattern: 'hello' })).output).toBe('a.txt:2:hello\n[1 matching line in 1 file]');
    const output = (await call('grep', { pattern: 'hello', ignoreCase: true })).output;
    expect(output).toBe('a.txt:1:Hello\na.txt:2:hello\na.txt:3:HELLO\n[3 matching lines in 1 file]');
  });

  it('shows context lines, merging groups that touch and separating the rest with --', async () => {
    const { files, call } = workspaceFixture();
    files({ 'f.txt': numbered(12, (i) => i === 3 || i === 5 || i === 11), 'g.txt': 'hit g\n' });
    const output = (await call('grep', { pattern: '^hit', path: '.', context: 1 })).output;
    expect(output).toBe(
      [
        'f.txt-2-line 2',
        'f.txt:3:hit 3',
        'f.txt-4-line 4',
        'f.txt:5:hit 5',
        'f.txt-6-line 6',
        '--',
        'f.txt-10-line 10',
        'f.txt:11:hit 11',
        'f.txt-12-line 12',
        '--',
        'g.txt:1:hit g',
        '[4 matching lines in 2 files]',
      ].join('\n'),
    );
  });

  it('searches one file or one folder given as path', async () => {
    const { files, call } = workspaceFixture();
    files({ 'src/a.ts': 'needle', 'test/a.ts': 'needle' });
    expect((await call('grep', { pattern: 'needle', path: 'src' })).output).toBe(
      'src/a.ts:1:needle\n[1 matching line in 1 file]',
    );
    expect((await call('grep', { pattern: 'needle', path: 'test/a.ts' })).output).toBe(
      'test/a.ts:1:needle\n[1 matching line in 1 file]',
    );
    expect((await call('grep', { pattern: 'needle', path: 'nope' })).error).toBe('Not found: nope');
  });

  it('filters files with a glob: by name without a slash, by path with one', async () => {
    const { files, call } = workspaceFixture();
    files({ 'src/a.ts': 'x', 'src/a.js': 'x', 'lib/b.ts': 'x' });
    expect((await call('grep', { pattern: 'x', glob: '*.ts' })).output).toBe(
      'lib/b.ts:1:x\nsrc/a.ts:1:x\n[2 matching lines in 2 files]',
    );
    expect((await call('grep', { pattern: 'x', glob: 'src/**' })).output).toBe(
      'src/a.js:1:x\nsrc/a.ts:1:x\n[2 matching lines in 2 files]',
    );
    expect((await call('grep', { pattern: 'x', glob: '../*' })).error).toMatch(/outside the workspace/);
  });

  it("skips .gitignore'd files (nested rules and negation too) and .git", async () => {
    const { files, call } = workspaceFixture();
    files({
      '.gitignore': '*.gen\n',
      'a.gen': 'needle',
      'a.src': 'needle',
      'sub/.gitignore': '!keep.gen\n',
      'sub/keep.gen': 'needle',
      'sub/drop.gen': 'needle',
      '.git/HEAD': 'needle',
    });
    expect((await call('grep', { pattern: 'needle' })).output).toBe(
      'a.src:1:needle\nsub/keep.gen:1:needle\n[2 matching lines in 2 files]',
    );
  });

  it('skips binary files and counts them; a binary file named as path is an error', async () => {
    const { files, call } = workspaceFixture();
    files({ 'img.bin': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]), 'a.txt': 'needle' });
    expect((await call('grep', { pattern: 'needle' })).output).toBe(
      'a.txt:1:needle\n[1 matching line in 1 file]\n[1 binary file skipped]',
    );
    expect((await call('grep', { pattern: 'needle', path: 'img.bin' })).error).toBe('Binary file: img.bin');
  });

  it('reports an invalid regular expression as an error the model can read', async () => {
    const { call } = workspaceFixture();
    const result = await call('grep', { pattern: 'foo(' });
    expect(toolMessageContent(result)).toMatch(/^Error: invalid pattern 'foo\(': Invalid regular expression: /);
  });

  it('stops at maxMatches with a marker that says there may be more', async () => {
    const { files, call } = workspaceFixture();
    files({ 'f.txt': numbered(50, () => true) });
    const output = (await call('grep', { pattern: 'hit', maxMatches: 3 })).output ?? '';
    expect(output.split('\n')).toEqual([
      'f.txt:1:hit 1',
      'f.txt:2:hit 2',
      'f.txt:3:hit 3',
      '[3 matching lines in 1 file]',
      '[stopped at 3 matching lines; there may be more: narrow pattern, path or glob to see the rest]',
    ]);
    expect((await call('grep', { pattern: 'hit', maxMatches: 5000 })).error).toMatch(/^Invalid parameters: maxMatches/);
  });

  it('cuts a long matching line with a marker, and searches only the start of a huge line', async () => {
    const { files, call } = workspaceFixture();
    files({ 'long.txt': `needle${'x'.repeat(2000)}\n${'y'.repeat(20_000)}needle\n` });
    const output = (await call('grep', { pattern: 'needle' })).output ?? '';
    expect(output).toBe(
      `long.txt:1:needle${'x'.repeat(494)} [truncated 1,506 characters]\n[1 matching line in 1 file]`,
    );
  });

  it('stops after reading its byte budget, and says so', async () => {
    const { ws, files } = workspaceFixture();
    files({ 'a.txt': `${'a\n'.repeat(3000)}needle\n` });
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new GrepTool(config, { maxScanBytes: 4096 }));
    const output = (await registry.invoke('grep', { pattern: 'needle' })).output ?? '';
    expect(output).toBe(
      'No matches for /needle/ in . (1 file searched)\n' +
        '[stopped after reading 4 KB, the limit of one search; narrow pattern, path or glob to see the rest]',
    );
  });

  it('stops when its time is up, and says so', async () => {
    const { ws, files } = workspaceFixture();
    files({ 'a.txt': 'needle' });
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new GrepTool(config, { maxScanMs: 0 }));
    expect((await registry.invoke('grep', { pattern: 'needle' })).output).toBe(
      'No matches for /needle/ in . (0 files searched)\n' +
        '[stopped after 0 s of searching; narrow pattern, path or glob to see the rest]',
    );
  });

  it('keeps its summary when the output reaches the observation cap', async () => {
    const { files, call } = workspaceFixture({ maxToolOutputChars: 2000 });
    files({ 'f.txt': numbered(500, () => true) });
    const output = (await call('grep', { pattern: 'hit', maxMatches: 1000 })).output ?? '';
    expect(output.length).toBeLessThanOrEqual(2000);
    expect(output).toMatch(/\n\[\d+ matching lines in 1 file\]\n\[stopped: output limit reached; /);
  });
});
