import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeServer, startFakeServer } from '../adapters/support/fake-server.js';
import { tempWorkspace } from '../support/workspace.js';
import { textAnswer, toolCallsAnswer } from './support/approval-sse.js';
import { inTerminal as inTerminalWithin } from './support/in-terminal.js';
import { spawnCli, until } from './support/spawn-cli.js';

/** Each process may take this long on a loaded machine (tsx compiles the CLI at start). */
const SLOW = 60_000;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const writeCall = () => toolCallsAnswer(['call_W', 'write_file', { path: 'out.txt', content: 'hello' }]);

/** Writes a policy module into a fresh folder; returns its path. */
function policyFile(source: string, name = 'policy.mjs'): string {
  const file = join(tempWorkspace(), name);
  writeFileSync(file, source);
  return file;
}

/** The CLI in a real pseudo-terminal (see support/in-terminal.ts). */
function inTerminal(args: readonly string[], env: Record<string, string>) {
  return inTerminalWithin(args, env, SLOW);
}

describe('agent-harness run --policy FILE', { timeout: 120_000 }, () => {
  it('applies the module’s policy functions: a denial reaches the model with its reason', async () => {
    server = await startFakeServer([writeCall(), textAnswer('ok')]);
    const cwd = tempWorkspace();
    const file = policyFile(
      "export const policy = { read: 'allow', write: (call) => ({ deny: 'no writes to ' + call.arguments.path }) };\n",
    );
    const result = await spawnCli(
      ['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--policy', file],
      { OPENAI_BASE_URL: `${server.url}/v1` },
      SLOW,
    ).done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Error: denied: no writes to out.txt' });
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
  });

  it('refuses a module without `policy`, and --yes with --policy (exit 2)', async () => {
    const missing = await spawnCli(['run', 'x', '--policy', policyFile('export const rules = {};\n')], {}, SLOW).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('must export `policy`');
    const both = await spawnCli(['run', 'x', '--yes', '--policy', policyFile('export const policy = {};\n')], {}, SLOW)
      .done;
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--yes and --policy FILE both set the policy');
  });

  it('runs the module’s guardrails: an output guardrail that trips ends the run (exit 1)', async () => {
    server = await startFakeServer([textAnswer('the secret is 42')]);
    const file = policyFile(
      [
        "export const policy = { read: 'allow' };",
        'export const guardrails = {',
        "  output: [{ name: 'no-secrets', check: (answer) => (answer.includes('secret') ? { tripwire: 'mentions a secret' } : 'pass') }],",
        '};',
        '',
      ].join('\n'),
    );
    const result = await spawnCli(
      ['run', 'tell me', '--cwd', tempWorkspace(), '--policy', file],
      { OPENAI_BASE_URL: `${server.url}/v1` },
      SLOW,
    ).done;
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "✗ stopped (guardrail): guardrail 'no-secrets' (output) tripped: mentions a secret",
    );
  });

  it('refuses a module whose guardrails are malformed, naming the file (exit 2)', async () => {
    const file = policyFile("export const policy = {};\nexport const guardrails = { output: [{ name: 'x' }] };\n");
    const result = await spawnCli(['run', 'x', '--policy', file], {}, SLOW).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--policy ${file}: guardrails: guardrails.output[0] ('x') needs a 'check' function`,
    );
  });

  it('on a terminal: names the rule that asked, and [e]dit re-asks on a bad edit, then runs the edited call', async () => {
    server = await startFakeServer([writeCall(), textAnswer('written')]);
    const cwd = tempWorkspace();
    const file = policyFile(
      'export const policy = { read: "allow", write: function reviewWrites() { return "ask"; } };\n',
    );
    const run = inTerminal(['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--policy', file], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await until(() => run.output().includes('[a]lways / [e]dit'), 'the prompt', SLOW);
    expect(run.output()).toContain('(rule write: reviewWrites)');
    run.type('e\n');
    await until(() => run.output().includes('edited arguments'), 'the edit prompt', SLOW);
    expect(run.output()).toContain('arguments now: {"path":"out.txt","content":"hello"}');
    run.type('{"path": 5, "content": "bye"}\n');
    await until(() => run.output().includes("do not fit the schema of tool 'write_file'"), 'the schema error', SLOW);
    run.type('{"path": "edited.txt", "content": "bye"}\n');
    expect(await run.done, run.output()).toBe(0);
    expect(readFileSync(join(cwd, 'edited.txt'), 'utf8')).toBe('bye');
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    const body = server.requests[1]?.body as {
      messages: { role: string; tool_calls?: { function: { arguments: string } }[] }[];
    };
    const assistant = body.messages.find((message) => message.role === 'assistant');
    expect(JSON.parse(assistant?.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual({
      path: 'edited.txt',
      content: 'bye',
    });
  });
});
