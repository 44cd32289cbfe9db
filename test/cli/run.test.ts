import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli/main.js';
import { readJournalFile } from '../../src/journal.js';
import { recordingSleep } from '../adapters/support/drain.js';
import {
  errorAnswer,
  type FakeResponse,
  type FakeServer,
  fixture,
  startFakeServer,
} from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
  vi.stubEnv('ANTHROPIC_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const toolsThenAnswer = () => [
  { chunks: [fixture('openai/parallel-tool-calls.sse')] },
  { chunks: [fixture('openai/text.sse')] },
];

async function run(args: string[], answers: FakeResponse[] = toolsThenAnswer(), path = '/v1') {
  server = await startFakeServer(answers);
  const cwd = cliWorkspace();
  const out = captured();
  const err = captured();
  const code = await main(['run', ...args, '--base-url', `${server.url}${path}`, '--cwd', cwd], out, err);
  return { code, out: out.text(), err: err.text(), cwd };
}

describe('agent-harness run', () => {
  it('streams text, one line per tool call and a summary, and exits 0 on a final answer', async () => {
    const { code, out, err } = await run(['What is in this folder?']);
    expect(code).toBe(0);
    expect(out).toContain('→ read_file {"path":"app.py"}\n');
    expect(out).toMatch(/✓ read_file: .*return a \+ b/);
    expect(out).toContain('Café au lait costs 3 €; 日本語 ✓\n');
    expect(out).toMatch(/done: final answer · 2 turns · 201 tokens \(138 in \/ 63 out\) · \$0\.000156 · \d+ ms\n$/);
    expect(err).toBe('');
  });

  it('refuses a --deny that names neither a kind nor a tool, naming the flag and the tool meant (exit 2)', async () => {
    const { code, err } = await run(['--deny', 'read_fil', 'do it'], []);
    expect(code).toBe(2);
    expect(err).toMatch(/--deny read_fil: .*did you mean 'read_file'\?/);
  });

  it('prints events as NDJSON with --json, ending with a summary', async () => {
    const { code, out } = await run(['What is here?', '--json']);
    expect(code).toBe(0);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: unknown });
    expect(lines[0]?.type).toBe('agent_start');
    expect(lines.at(-2)?.type).toBe('agent_end');
    expect(lines.at(-1)).toMatchObject({
      type: 'summary',
      data: { outcome: 'answer', turns: 2, model: 'gpt-4.1-mini' },
    });
    // Tool-argument deltas are carried as they streamed, before the calls start.
    const deltas = lines.filter((line) => line.type === 'tool_call_delta');
    expect(deltas[0]).toEqual({
      type: 'tool_call_delta',
      data: { callId: 'call_A1', name: 'read_file', argumentsDelta: '{"pa' },
    });
    expect(deltas).toHaveLength(6);
  });

  it('saves the journal with --journal', async () => {
    const file = join(cliWorkspace(), 'run.jsonl');
    const { code, out } = await run(['What is here?', '--journal', file]);
    expect(code).toBe(0);
    const journal = await readJournalFile(file);
    expect(journal.filter((entry) => entry.type === 'tool_result')).toHaveLength(2);
    expect(out).toContain(`journal: ${file} (${journal.length} entries)`);
  });

  it('talks to Anthropic with --provider anthropic', async () => {
    const answers = [{ chunks: [fixture('anthropic/text.sse')] }];
    const { code, out } = await run(['Say hi', '--provider', 'anthropic'], answers, '');
    expect(code).toBe(0);
    expect(out).toContain('done: final answer · 1 turn · 40 tokens (25 in / 15 out) · $0.000300');
    expect(server?.requests[0]?.url).toBe('/v1/messages');
    // The default model is one the provider still serves (claude-sonnet-4-5 reached its end of life on 30 November 2026).
    expect((server?.requests[0]?.body as { model?: string } | undefined)?.model).toBe('claude-sonnet-4-6');
  });

  it('exits 1 with the stop reason when a budget stops the run', async () => {
    const turns = await run(['What is here?', '--max-turns', '1']);
    expect(turns.code).toBe(1);
    expect(turns.out).toContain('✗ stopped (turn_budget)');
    const cost = await run(['What is here?', '--max-cost', '0.0001']);
    expect(cost.code).toBe(1);
    expect(cost.out).toMatch(/done: stopped: cost_budget · 1 turn/);
  });

  it('warns once that an unknown model costs nothing', async () => {
    const { code, err } = await run(['What is here?', '--model', 'qwen2.5:7b']);
    expect(code).toBe(0);
    expect(err).toBe(
      "warning: no price known for model 'qwen2.5:7b': its cost counts as 0, so a cost budget will not stop the run\n",
    );
    expect(server?.requests[0]?.body).toMatchObject({ model: 'qwen2.5:7b' });
  });

  it('ends with model_error in one line, and a journal without the partial turn, when the stream is cut', async () => {
    const file = join(cliWorkspace(), 'cut.jsonl');
    const { code, out } = await run(
      ['Read app.py', '--journal', file],
      [{ chunks: [fixture('openai/cut.sse')], cut: true }],
    );
    expect(code).toBe(1);
    expect(out).toMatch(
      /✗ stopped \(model_error\): openai at http:\/\/127\.0\.0\.1:\d+\/v1: the response stream failed/,
    );
    const journal = await readJournalFile(file);
    expect(journal.some((entry) => entry.type === 'assistant_message')).toBe(false);
  });

  it('reports an unreachable server in one line, without a stack trace', async () => {
    const closed = await startFakeServer([]);
    await closed.close();
    const out = captured();
    const err = captured();
    const code = await main(['run', 'hi', '--base-url', closed.url, '--cwd', cliWorkspace()], out, err);
    expect(code).toBe(1);
    expect(out.text()).toContain(`✗ stopped (model_error): openai at ${closed.url}: cannot connect (ECONNREFUSED)\n`);
    expect(out.text() + err.text()).not.toMatch(/\n\s+at /);
  });

  it('prints each retry on stderr', async () => {
    server = await startFakeServer([errorAnswer(503, 'busy'), ...toolsThenAnswer()]);
    const recorder = recordingSleep();
    const command = createRunCommand({ retry: { sleep: recorder.sleep, random: () => 0 }, handleSigint: false });
    const err = captured();
    const args = ['hi', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()];
    expect(await command(args, captured(), undefined, err)).toBe(0);
    expect(err.text()).toMatch(/^retry 1 in 0\.5 s after: openai at .*: server error \(HTTP 503\): busy\n$/);
  });

  it('shows a spinner while a tool runs on a terminal, then one line per call', async () => {
    server = await startFakeServer(toolsThenAnswer());
    const ticks: (() => void)[] = [];
    const command = createRunCommand({
      isTTY: true,
      handleSigint: false,
      ticker: (tick) => {
        ticks.push(tick);
        return () => {};
      },
    });
    const out = captured();
    await command(['hi', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()], out, undefined, captured());
    const text = out.text();
    expect(ticks.length).toBeGreaterThan(0);
    expect(text).toContain('⠋ read_file {"path":"app.py"}');
    expect(text).toMatch(/✓ read_file \{"path":"app\.py"\}: .*return a \+ b/);
    expect(text).not.toContain('→');
  });
});

describe('agent-harness run usage', () => {
  async function usage(args: string[]) {
    const out = captured();
    const err = captured();
    const code = await main(['run', ...args], out, err);
    return { code, out: out.text(), err: err.text() };
  }

  it('explains itself with examples', async () => {
    const { code, out } = await usage(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Examples:');
    expect(out).toContain('--base-url');
  });

  it.each([
    [[], 'missing the task'],
    [['hi', '--provider', 'gemini'], "--provider must be one of openai, anthropic, got 'gemini'"],
    [['hi', '--max-turns', '0'], '--max-turns must be a positive whole number'],
    [['hi', '--max-cost', 'lots'], '--max-cost must be a positive decimal number'],
    [['hi', '--timeout', 'soon'], '--timeout must be a positive duration'],
    [['hi', '--cwd', '/no/such/dir'], "--cwd must be an existing directory, got '/no/such/dir'"],
    [['hi', '--base-url', 'localhost:8080'], "--base-url must be an http(s) URL, got 'localhost:8080'"],
    [['hi', '--temperature', '0'], "Unknown option '--temperature'"],
  ])('exits 2 with one line for %j', async (args, message) => {
    const { code, out, err } = await usage(args);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 2 when the key for the provider is missing', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const { code, err } = await usage(['hi']);
    expect(code).toBe(2);
    expect(err).toBe(
      'agent-harness run: OPENAI_API_KEY is not set: export it, or point --base-url at a server that needs no key\n',
    );
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    expect((await usage(['hi', '--provider', 'anthropic'])).err).toContain('ANTHROPIC_API_KEY is not set');
  });
});
