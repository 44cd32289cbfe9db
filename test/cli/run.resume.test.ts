import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readJournalFile } from '../../src/journal.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function cli(args: string[], answers: FakeResponse[], cwd: string) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const code = await main(['run', ...args, '--base-url', `${server.url}/v1`, '--cwd', cwd], out, err);
  const requests = server.requests;
  await server.close();
  server = undefined;
  return { code, out: out.text(), err: err.text(), requests };
}

describe('agent-harness run --resume', () => {
  it('continues a run cut by a model error from its journal, and keeps writing that journal', async () => {
    const cwd = cliWorkspace();
    const file = join(cwd, 'run.jsonl');
    const first = await cli(
      ['Read app.py', '--journal', file],
      [{ chunks: [fixture('openai/cut.sse')], cut: true }],
      cwd,
    );
    expect(first.code).toBe(1);
    const before = await readJournalFile(file);

    const second = await cli(['--resume', file], [{ chunks: [fixture('openai/text.sse')] }], cwd);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/done: final answer · 2 turns/);
    const after = await readJournalFile(file);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)?.type).toBe('agent_end');
    expect(second.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: 'Read app.py' }] });
  });

  it('drops a torn last line of the journal (a run killed mid-append) with a warning, and resumes', async () => {
    const cwd = cliWorkspace();
    const file = join(cwd, 'run.jsonl');
    const first = await cli(
      ['Read app.py', '--journal', file],
      [{ chunks: [fixture('openai/cut.sse')], cut: true }],
      cwd,
    );
    expect(first.code).toBe(1);
    const before = await readJournalFile(file);
    appendFileSync(file, '{"content":"half a li');

    const second = await cli(['--resume', file], [{ chunks: [fixture('openai/text.sse')] }], cwd);
    expect(second.err).toContain(`warning: ${file}: dropped a torn last line (line ${before.length + 2}, 21 bytes`);
    expect(second.code).toBe(0);
    const after = await readJournalFile(file, { onWarning: (message) => expect.fail(message) });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)?.type).toBe('agent_end');
  });

  it('asks a follow-up on a finished session, and refuses to resume it without one (exit 2)', async () => {
    const cwd = cliWorkspace();
    const file = join(cwd, 'done.jsonl');
    expect((await cli(['Say hi', '--journal', file], [{ chunks: [fixture('openai/text.sse')] }], cwd)).code).toBe(0);
    const refused = await cli(['--resume', file], [], cwd);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/ended with a final answer/);
    const followUp = await cli(['And again?', '--resume', file], [{ chunks: [fixture('openai/text.sse')] }], cwd);
    expect(followUp.code).toBe(0);
    const users = (await readJournalFile(file)).filter((entry) => entry.type === 'user_message');
    expect(users.map((entry) => entry.content)).toEqual(['Say hi', 'And again?']);
  });

  it('resumes a version 1 journal cut while its tools ran: the write is in doubt (not run again), the read runs', async () => {
    const cwd = cliWorkspace();
    const file = join(cwd, 'v1.jsonl');
    // As version 1 wrote a run cut in executingTools: no write-ahead tool_started entries.
    const lines = [
      { format: 'agent-harness-journal', version: 1 },
      { type: 'user_message', content: 'Note it' },
      { type: 'turn_start' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } },
      {
        type: 'assistant_message',
        content: '',
        toolCalls: [
          { callId: 'w1', name: 'write_file', arguments: { path: 'out.txt', content: 'paid' } },
          { callId: 'r1', name: 'read_file', arguments: { path: 'notes.md' } },
        ],
      },
      { type: 'transition', event: 'xstate.done.actor.model', from: 'awaitingModel', to: 'executingTools' },
    ];
    writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const { code, requests } = await cli(
      ['--resume', file, '--tools', 'workspace', '--allow', 'write_file'],
      [{ chunks: [fixture('openai/text.sse')] }],
      cwd,
    );
    expect(code).toBe(0);
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    const results = (await readJournalFile(file)).flatMap((entry) => (entry.type === 'tool_result' ? [entry] : []));
    expect(results.map((entry) => entry.callId)).toEqual(['w1', 'r1']);
    expect(String(results[0]?.content)).toMatch(/^Error: interrupted: /);
    expect(String(results[1]?.content)).toContain('# Notes');
    expect(requests).toHaveLength(1);
  });

  it('refuses a --resume file that does not exist (exit 2)', async () => {
    const { code, err } = await cli(['--resume', join(cliWorkspace(), 'nope.jsonl')], [], cliWorkspace());
    expect(code).toBe(2);
    expect(err).toMatch(/--resume must be an existing journal file/);
  });
});
