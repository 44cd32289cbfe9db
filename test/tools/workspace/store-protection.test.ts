import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry, workspaceTools } from '../../../src/index.js';
import { workspaceFixture } from './workspace-fixture.js';

const REFUSED = (path: string) => `path '${path}' is in the session store, which the workspace tools do not touch`;

describe('the session store is out of reach of the workspace tools', () => {
  it('refuses to write, edit, read or list inside .agent-harness/, and leaves the store as it was', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ '.agent-harness/sessions.db': 'STORE', 'app.txt': 'app' });
    expect((await call('write_file', { path: '.agent-harness/sessions.db', content: 'x' })).error).toBe(
      REFUSED('.agent-harness/sessions.db'),
    );
    expect((await call('write_file', { path: './.agent-harness/new.db', content: 'x' })).error).toBe(
      REFUSED('./.agent-harness/new.db'),
    );
    expect((await call('edit_file', { path: '.agent-harness/sessions.db', old: 'STORE', new: 'x' })).error).toBe(
      REFUSED('.agent-harness/sessions.db'),
    );
    expect((await call('read_file', { path: '.agent-harness/sessions.db' })).error).toBe(
      REFUSED('.agent-harness/sessions.db'),
    );
    expect((await call('list_dir', { path: '.agent-harness' })).error).toBe(REFUSED('.agent-harness'));
    expect((await call('glob', { pattern: '**/*.db' })).output).toMatch(/^No files match/);
    expect(readdirSync(join(ws, '.agent-harness'))).toEqual(['sessions.db']);
    expect(readFileSync(join(ws, '.agent-harness/sessions.db'), 'utf8')).toBe('STORE');
    expect((await call('write_file', { path: 'app.txt', content: 'still fine' })).success).toBe(true);
  });

  it('refuses it through a symlink too', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ '.agent-harness/sessions.db': 'STORE' });
    symlinkSync('.agent-harness', join(ws, 'innocent'));
    expect((await call('write_file', { path: 'innocent/sessions.db', content: 'x' })).error).toBe(
      REFUSED('innocent/sessions.db'),
    );
    expect(readFileSync(join(ws, '.agent-harness/sessions.db'), 'utf8')).toBe('STORE');
  });

  it('refuses the paths of Config.protectedPaths: a store file, its SQLite siblings, a store folder', async () => {
    const { ws } = workspaceFixture();
    mkdirSync(join(ws, 'journals'));
    writeFileSync(join(ws, 'sessions.db'), 'STORE');
    const config = new Config({ cwd: ws, protectedPaths: ['sessions.db', join(ws, 'journals')] });
    const registry = new ToolRegistry(config).register(...workspaceTools(config));
    for (const path of ['sessions.db', 'sessions.db-wal', 'sessions.db-journal', 'journals/a.jsonl']) {
      expect((await registry.invoke('write_file', { path, content: 'x' })).error).toBe(REFUSED(path));
    }
    expect(readFileSync(join(ws, 'sessions.db'), 'utf8')).toBe('STORE');
    expect((await registry.invoke('write_file', { path: 'sessions.dbx', content: 'x' })).success).toBe(true);
  });
});
