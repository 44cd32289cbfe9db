import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { EditFileTool, toolMessageContent } from '../../../src/tools/index.js';
import { workspaceFixture } from './workspace-fixture.js';

const source = 'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n';

describe('edit_file', () => {
  it('replaces a unique string and says which lines it replaced', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'app.py': source });
    const result = await call('edit_file', {
      path: 'app.py',
      old: 'def sub(a, b):\n    return a - b',
      new: 'def sub(a, b):\n    """Difference."""\n    return a - b',
    });
    expect(result).toEqual({ success: true, output: 'Edited app.py: replaced lines 4-5 with 3 lines' });
    expect(readFileSync(join(ws, 'app.py'), 'utf8')).toBe(
      'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    """Difference."""\n    return a - b\n',
    );
    expect(readdirSync(ws)).toEqual(['app.py']);
  });

  it('can delete text by replacing it with nothing', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'a.txt': 'keep DROP keep' });
    expect((await call('edit_file', { path: 'a.txt', old: ' DROP', new: '' })).output).toBe(
      'Edited a.txt: replaced line 1 with 1 line',
    );
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('keep keep');
  });

  it('says when the text is not found, and leaves the file alone', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'app.py': source });
    const result = await call('edit_file', { path: 'app.py', old: 'return a * b', new: 'x' });
    expect(toolMessageContent(result)).toBe(
      'Error: old text was not found in app.py; check whitespace and line breaks',
    );
    expect(readFileSync(join(ws, 'app.py'), 'utf8')).toBe(source);
  });

  it('names the count when the text is ambiguous, and leaves the file alone', async () => {
    const { ws, files, call } = workspaceFixture();
    files({ 'app.py': source, 'aaa.txt': 'aaa' });
    const before = statSync(join(ws, 'app.py')).mtimeMs;
    expect((await call('edit_file', { path: 'app.py', old: '(a, b)', new: '(x, y)' })).error).toBe(
      'old text was found 2 times in app.py; include more context so it occurs exactly once',
    );
    expect(readFileSync(join(ws, 'app.py'), 'utf8')).toBe(source);
    expect(statSync(join(ws, 'app.py')).mtimeMs).toBe(before);
    // Overlapping occurrences count: 'aa' sits at two places in 'aaa'.
    expect((await call('edit_file', { path: 'aaa.txt', old: 'aa', new: 'b' })).error).toMatch(/found 2 times/);
  });

  it('refuses an empty old text, a no-op edit, a missing file and a folder', async () => {
    const { files, call } = workspaceFixture();
    files({ 'a.txt': 'x', 'dir/b.txt': '' });
    expect((await call('edit_file', { path: 'a.txt', old: '', new: 'y' })).error).toMatch(/^Invalid parameters: old: /);
    expect((await call('edit_file', { path: 'a.txt', old: 'x', new: 'x' })).error).toBe(
      'old and new are the same; nothing to change',
    );
    expect((await call('edit_file', { path: 'nope.txt', old: 'x', new: 'y' })).error).toBe('File not found: nope.txt');
    expect((await call('edit_file', { path: 'dir', old: 'x', new: 'y' })).error).toBe('Not a file: dir');
  });

  it('refuses a binary file', async () => {
    const { files, call } = workspaceFixture();
    files({ 'b.bin': Buffer.from([0x61, 0, 0x62]) });
    expect((await call('edit_file', { path: 'b.bin', old: 'a', new: 'c' })).error).toBe('Binary file: b.bin');
  });

  describe('another writer between the read and the write', () => {
    /** An edit_file whose file is changed by `otherWriter` right after the tool read it. */
    function racedBy(otherWriter: (path: string) => void) {
      const { ws, files } = workspaceFixture();
      const config = new Config({ cwd: ws });
      const registry = new ToolRegistry(config).register(new EditFileTool(config, { afterRead: otherWriter }));
      return { ws, files, call: (params: object) => registry.invoke('edit_file', params) };
    }

    it('reports a conflict and keeps the other change when the file changed meanwhile', async () => {
      const { ws, files, call } = racedBy((path) => writeFileSync(path, 'their line\nold line\n'));
      files({ 'notes.txt': 'old line\n' });
      const result = await call({ path: 'notes.txt', old: 'old line', new: 'my line' });
      expect(toolMessageContent(result)).toBe(
        'Error: conflict: notes.txt changed while it was being edited; read it again',
      );
      expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('their line\nold line\n');
      expect(readdirSync(ws)).toEqual(['notes.txt']);
    });

    it('reports a conflict when the file was removed meanwhile, and does not bring it back', async () => {
      const { ws, files, call } = racedBy((path) => unlinkSync(path));
      files({ 'notes.txt': 'old line\n' });
      expect((await call({ path: 'notes.txt', old: 'old', new: 'new' })).error).toBe(
        'conflict: notes.txt changed while it was being edited; read it again',
      );
      expect(readdirSync(ws)).toEqual([]);
    });

    it('edits as usual when the other writer wrote the same bytes', async () => {
      const { ws, files, call } = racedBy((path) => writeFileSync(path, 'old line\n'));
      files({ 'notes.txt': 'old line\n' });
      expect((await call({ path: 'notes.txt', old: 'old', new: 'new' })).success).toBe(true);
      expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('new line\n');
    });
  });
});
