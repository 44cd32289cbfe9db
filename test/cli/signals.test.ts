import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../src/index.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { cliWorkspace } from './support/cli-harness.js';
import { spawnCli, until } from './support/spawn-cli.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('agent-harness run stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s aborts the run like Ctrl-C: summary, journal saved, exit 1',
    async (signal) => {
      server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
      const dir = cliWorkspace();
      const file = join(dir, 'run.jsonl');
      const cli = spawnCli(['run', 'hi', '--base-url', `${server.url}/v1`, '--cwd', dir, '--journal', file]);
      await until(() => (server?.requests.length ?? 0) > 0, 'the request');
      cli.child.kill(signal);
      const { code, stdout, stderr } = await cli.done;
      expect(code).toBe(1);
      expect(stdout).toContain(`✗ stopped (aborted): interrupted (${signal})`);
      expect(stdout).toMatch(/done: stopped: aborted · 1 turn/);
      expect(stderr).toBe('');
      expect((await readJournalFile(file)).at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
      expect(existsSync(`${file}.lock`)).toBe(false);
      await server.clientGone(0);
    },
  );
});
