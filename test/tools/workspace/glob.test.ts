import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { GlobTool } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

describe('glob', () => {
  it('lists matching files as sorted relative paths', async () => {
    const { files, call } = workspaceFixture();
    files({ 'src/b.ts': '', 'src/a.ts': '', 'src/deep/c.ts': '', 'src/d.js': '', 'top.ts': '' });
    expect((await call('glob', { pattern: 'src/**/*.ts' })).output).toBe('src/a.ts\nsrc/b.ts\nsrc/deep/c.ts');
    expect((await call('glob', { pattern: '**/*.ts' })).output).toBe('src/a.ts\nsrc/b.ts\nsrc/deep/c.ts\ntop.ts');
    expect((await call('glob', { pattern: './*.ts' })).output).toBe('top.ts');
  });

  it('says when nothing matches', async () => {
    const { call } = workspaceFixture();
    expect((await call('glob', { pattern: '**/*.rs' })).output).toBe(
      "No files match **/*.rs (.gitignore'd files and .git are skipped)",
    );
  });

  it('skips what .gitignore excludes, and always .git', async () => {
    const { files, call } = workspaceFixture();
    files({
      '.gitignore': 'dist/\n*.log\n',
      'dist/out.js': '',
      'app.js': '',
      'debug.log': '',
      '.git/config': '',
      '.git/hooks/pre-commit.js': '',
    });
    expect((await call('glob', { pattern: '**/*' })).output).toBe('app.js');
    expect((await call('glob', { pattern: '.git/**' })).output).toMatch(/^No files match/);
    expect((await call('glob', { pattern: '.git/config' })).output).toMatch(/^No files match/);
  });

  it('honours nested .gitignore files and negation, the deeper file winning', async () => {
    const { files, call } = workspaceFixture();
    files({
      '.gitignore': '*.log\n!keep.log\nbuild/\n',
      'keep.log': '',
      'drop.log': '',
      'pkg/.gitignore': '!important.log\n*.tmp\nbuild/\n!build/\n',
      'pkg/important.log': '',
      'pkg/other.log': '',
      'pkg/x.tmp': '',
      'pkg/build/kept.js': '',
      'build/gone.js': '',
      'src/x.tmp': '',
    });
    const listed = (await call('glob', { pattern: '**/*.{log,tmp,js}' })).output;
    expect(listed).toBe('keep.log\npkg/build/kept.js\npkg/important.log\nsrc/x.tmp');
  });

  it('searches a folder named explicitly even when it is ignored', async () => {
    const { files, call } = workspaceFixture();
    files({ '.gitignore': 'vendor/\n', 'vendor/lib/a.js': '', 'b.js': '' });
    expect((await call('glob', { pattern: '**/*.js' })).output).toBe('b.js');
    expect((await call('glob', { pattern: 'vendor/**/*.js' })).output).toBe('vendor/lib/a.js');
  });

  it('lists a literal path when that file exists', async () => {
    const { files, call } = workspaceFixture();
    files({ 'src/app.ts': '' });
    expect((await call('glob', { pattern: 'src/app.ts' })).output).toBe('src/app.ts');
    expect((await call('glob', { pattern: 'src/none.ts' })).output).toMatch(/^No files match/);
  });

  it('does not follow symlinked folders', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'real/a.ts': '' });
    symlinkSync(join(ws, 'real'), join(ws, 'alias'));
    expect((await call('glob', { pattern: '**/*.ts' })).output).toBe('real/a.ts');
  });

  it('caps the matches with a marker saying how many more there are', async () => {
    const { ws, files } = workspaceFixture();
    files(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, ''])));
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new GlobTool(config, { maxMatches: 10 }));
    const lines = ((await registry.invoke('glob', { pattern: '*.txt' })).output ?? '').split('\n');
    expect(lines.slice(0, 2)).toEqual(['f00.txt', 'f01.txt']);
    expect(lines).toHaveLength(11);
    expect(lines[10]).toBe('[15 more matches not shown; narrow the pattern]');
  });

  it('stops a walk that looks at too many entries, and says so', async () => {
    const { ws, files } = workspaceFixture();
    mkdirSync(join(ws, 'many'));
    files(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/${i}.txt`, ''])));
    const config = new Config({ cwd: ws });
    const registry = new ToolRegistry(config).register(new GlobTool(config, { maxEntries: 10 }));
    const output = (await registry.invoke('glob', { pattern: '**/*.txt' })).output ?? '';
    expect(output).toMatch(/\[stopped after looking at 10 entries; narrow the pattern\]$/);
  });

  it('refuses patterns that climb out or are absolute', async () => {
    const { call } = workspaceFixture();
    expect((await call('glob', { pattern: '../**/*' })).error).toBe("pattern '../**/*' is outside the workspace");
    expect((await call('glob', { pattern: 'a/../../*' })).error).toMatch(/outside the workspace/);
    expect((await call('glob', { pattern: '/etc/*' })).error).toBe("pattern '/etc/*' is absolute");
  });
});
