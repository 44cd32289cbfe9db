import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { nodeArgs } from '../support/script-bundles.js';
import { tempWorkspace } from '../support/workspace.js';
import { captured } from './support/cli-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('agent-harness (main)', () => {
  it('with no command prints the help on stderr and exits 2; --help prints it on stdout and exits 0', async () => {
    const out = captured();
    const err = captured();
    expect(await main([], out, err)).toBe(2);
    expect(out.text()).toBe('');
    expect(err.text()).toContain('Usage: agent-harness <command>');
    const help = captured();
    expect(await main(['--help'], help, captured())).toBe(0);
    expect(help.text()).toContain('Commands:');
  });

  it('refuses a --journal whose folder cannot be made before running, with one line and exit 2', async () => {
    const err = captured();
    const out = captured();
    const dir = tempWorkspace();
    writeFileSync(join(dir, 'file'), '');
    const impossible = join(dir, 'file', 'no', 'such', 'dir', 'run.jsonl');
    expect(await main(['demo', '--journal', impossible], out, err)).toBe(2);
    expect(err.text()).toMatch(
      /^agent-harness demo: --journal: cannot create the folder '.*dir': '.*file' is a file\n$/,
    );
    expect(out.text()).toBe('');
  });

  it('treats a value a library refuses (an empty model name) as bad usage: exit 2', async () => {
    const err = captured();
    const code = await main(['run', 'hi', '--model', '', '--base-url', 'http://127.0.0.1:9'], captured(), err);
    expect(code).toBe(2);
    expect(err.text().trim().split('\n')).toHaveLength(1);
  });

  it("puts a mistake Node's option parser explains over several lines on one line, exit 2", async () => {
    const err = captured();
    expect(await main(['run', 'hi', '--model', '-x'], captured(), err)).toBe(2);
    expect(err.text()).toMatch(/^agent-harness run: .*'--model.*ambiguous.*\n$/);
    expect(err.text().trim().split('\n')).toHaveLength(1);
  });

  it('ends quietly when its output pipe closes early (no EPIPE stack trace)', async () => {
    const result = await new Promise<{ stderr: string }>((resolve) => {
      execFile(
        '/bin/sh',
        [
          '-c',
          `"${process.execPath}" ${nodeArgs('src/cli/bin.ts').join(' ')} demo --json --journal "${join(tempWorkspace(), 'j.jsonl')}" | head -c 1`,
        ],
        { cwd: root, timeout: 15_000 },
        (_error, _stdout, stderr) => resolve({ stderr }),
      );
    });
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
  });
});
