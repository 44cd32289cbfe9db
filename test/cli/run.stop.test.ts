import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { readJournalFile } from '../../src/journal.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => vi.stubEnv('OPENAI_API_KEY', 'sk-test'));
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function hangingRun(extra: string[], signal?: AbortSignal) {
  server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
  const journal = join(cliWorkspace(), 'run.jsonl');
  const out = captured();
  const command = createRunCommand({ handleSigint: false });
  const args = ['hi', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace(), '--journal', journal, ...extra];
  const code = await command(args, out, signal, captured());
  return { code, out: out.text(), journal: await readJournalFile(journal) };
}

describe('agent-harness run stopping mid-stream', () => {
  it('ends a stalled answer at --timeout with time_budget, cancelling the request', async () => {
    // Long enough for the request to reach the server on a busy machine (it loads the SDK first).
    const { code, out, journal } = await hangingRun(['--timeout', '2500ms']);
    expect(code).toBe(1);
    expect(out).toContain('✗ stopped (time_budget)');
    expect(journal.some((entry) => entry.type === 'assistant_message')).toBe(false);
    await server?.clientGone(0);
  });

  it('ends with aborted when its signal fires, and still writes the journal', async () => {
    const controller = new AbortController();
    const pending = hangingRun([], controller.signal);
    while ((server?.requests.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const { code, out, journal } = await pending;
    expect(code).toBe(1);
    expect(out).toContain('✗ stopped (aborted)');
    expect(journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    await server?.clientGone(0);
  });
});
