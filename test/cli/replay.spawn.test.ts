import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a program of the checkout under tsx (not the test bundle): `--agent` names a TypeScript
 * module, which the CLI imports, and tsx resolves `agent-harness` to src/ as the examples expect.
 */
function tsx(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const replay = (...args: string[]) => tsx(['src/cli/bin.ts', 'replay', ...args]);
const original = 'examples/cassettes/agent.ts';
const changed = 'examples/cassettes/agent-changed.ts';

describe('agent-harness replay (examples/cassettes)', () => {
  it('records a run; --check passes it, fails a changed tool description with a diff, and --update accepts the change', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'replay-cli-')), 'lookup.cassette.jsonl');
    const recorded = await tsx(['examples/cassettes/record.ts', path]);
    expect(recorded.stdout).toContain('recorded 2 model turns');

    const same = await replay(path, '--agent', original, '--check');
    expect(same).toMatchObject({ code: 0, stdout: 'cassette: ok, the run matched the recording\n' });

    const differs = await replay(path, '--agent', changed, '--check');
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain('tools offered diverged at step 1 (journal entry 1, turn 1, state awaitingModel)');
    expect(differs.stdout).toContain('tools[0].description:');
    expect(differs.stdout).toContain('+ actual   "Looks a word up in the dictionary; give the word in lower case."');

    const json = await replay(path, '--agent', changed, '--check', '--json');
    const report = JSON.parse(json.stdout) as { ok: boolean; divergence: { kind: string; step: { turn: number } } };
    expect(report).toMatchObject({ ok: false, divergence: { kind: 'tools offered', step: { turn: 1 } } });

    const before = readFileSync(path, 'utf8');
    const updated = await replay(path, '--agent', changed, '--update');
    expect(updated).toMatchObject({ code: 0 });
    expect(updated.stdout).toContain('cassette updated: 2 change(s) accepted');
    const after = readFileSync(path, 'utf8');
    // The model's recorded answers are kept as they were.
    const answers = (text: string) => text.split('\n').filter((line) => line.includes('"kind":"answer"'));
    expect(answers(after)).toEqual(answers(before));
    expect((await replay(path, '--agent', changed, '--check')).code).toBe(0);
    expect((await replay(path, '--agent', original, '--check')).code).toBe(1);
  }, 120_000);

  it('--update reports recorded answers that no longer fit, and writes nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'replay-cli-'));
    const path = join(folder, 'lookup.cassette.jsonl');
    await tsx(['examples/cassettes/record.ts', path]);
    const agent = join(folder, 'no-tools.ts');
    writeFileSync(
      agent,
      `import { Agent, Config, type ModelClient } from '${root}src/index.ts';\nexport const makeAgent = (client: ModelClient) => new Agent(new Config({ systemPrompt: 'You define words, briefly.' }), { client });\n`,
    );
    const before = readFileSync(path, 'utf8');
    const result = await replay(path, '--agent', agent, '--update');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('cassette not updated: 1 recorded answer(s) no longer fit');
    expect(result.stdout).toContain('calls lookup, which the run no longer offers');
    expect(readFileSync(path, 'utf8')).toBe(before);
  }, 120_000);

  it('refuses bad usage with exit 2: no --agent, both or neither of --check and --update, a bad --redact', async () => {
    const noAgent = await replay('missing.jsonl', '--check');
    expect(noAgent.code).toBe(2);
    const both = await replay('missing.jsonl', '--check', '--update', '--agent', original);
    expect(both.stderr).toContain('give one of --check (compare) and --update (rewrite)');
    const badRedact = await replay('missing.jsonl', '--check', '--agent', original, '--redact', '(');
    expect(badRedact).toMatchObject({ code: 2 });
    expect(badRedact.stderr).toContain("--redact: redact pattern '(' is not a regular expression");
  }, 120_000);
});
