import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeServer, startFakeServer } from '../adapters/support/fake-server.js';
import { TERMINAL_CONTROL } from '../support/terminal.js';
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

const writeCall = (content = 'hello') => toolCallsAnswer(['call_W', 'write_file', { path: 'out.txt', content }]);

/** The last message the model was sent in request `n`. */
function lastMessage(n: number): { role?: string; content?: string; tool_call_id?: string } | undefined {
  const body = server?.requests[n]?.body as { messages?: { role: string; content: string }[] } | undefined;
  return body?.messages?.at(-1);
}

/** The CLI in a real pseudo-terminal (see support/in-terminal.ts). */
function inTerminal(args: readonly string[], env: Record<string, string>) {
  return inTerminalWithin(args, env, SLOW);
}

describe('agent-harness run: approval without a terminal', { timeout: 120_000 }, () => {
  it('suspends a call that must ask, prints how to resume, and a new process runs exactly the approved call', async () => {
    server = await startFakeServer([writeCall(), textAnswer('written')]);
    const cwd = tempWorkspace();
    const journal = join(tempWorkspace(), 'run.jsonl');
    const env = { OPENAI_BASE_URL: `${server.url}/v1` };
    const first = await spawnCli(
      ['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--journal', journal],
      env,
      SLOW,
    ).done;
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('⏸ write_file {"path":"out.txt","content":"hello"}: waits for approval');
    expect(first.stdout).toContain('✗ stopped (suspended)');
    expect(first.stdout).toContain('waiting for approval: write_file (call_W)');
    expect(first.stdout).toContain(
      `to resume allowing them: agent-harness run --resume ${journal} --tools workspace --cwd ${cwd} --allow write_file`,
    );
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    expect(server.requests).toHaveLength(1);

    const second = await spawnCli(
      ['run', '--resume', journal, '--allow', 'write_file', '--tools', 'workspace', '--cwd', cwd],
      env,
      SLOW,
    ).done;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('hello');
    expect(lastMessage(1)).toMatchObject({ role: 'tool', content: 'Wrote 5 bytes to out.txt (created)' });
  });

  it('with a sqlite store, prints `agent-harness resume ID …`, and that command runs exactly the approved call in a fresh process', async () => {
    server = await startFakeServer([writeCall(), textAnswer('written')]);
    const cwd = tempWorkspace();
    const store = `sqlite:${join(tempWorkspace(), 'sessions.db')}`;
    const env = { OPENAI_BASE_URL: `${server.url}/v1` };
    const first = await spawnCli(['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--store', store], env, SLOW)
      .done;
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('waiting for approval: write_file (call_W)');
    const id = /session: (\S+) \(/.exec(first.stdout)?.[1] ?? '';
    const hint = first.stdout.split('\n').find((line) => line.startsWith('to resume allowing them: ')) ?? '';
    expect(hint).toBe(
      `to resume allowing them: agent-harness resume ${id} --store ${store} --tools workspace --cwd ${cwd} --allow write_file`,
    );
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);

    // The printed command, as the user would paste it.
    const args = hint.replace('to resume allowing them: agent-harness ', '').split(' ');
    const second = await spawnCli(args, env, SLOW).done;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('hello');
    expect(server.requests).toHaveLength(2);
    expect(lastMessage(1)).toMatchObject({ role: 'tool', content: 'Wrote 5 bytes to out.txt (created)' });

    const sessions = await spawnCli(['sessions', '--store', store], env, SLOW).done;
    expect(sessions.stdout).toMatch(new RegExp(`${id}.*done`));
  });

  it('--deny answers the call without asking; --json shows requests and decisions as events', async () => {
    server = await startFakeServer([writeCall(), textAnswer('ok')]);
    const cwd = tempWorkspace();
    const env = { OPENAI_BASE_URL: `${server.url}/v1` };
    const denied = await spawnCli(
      ['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--deny', 'write'],
      env,
      SLOW,
    ).done;
    expect(denied.code).toBe(0);
    expect(denied.stdout).not.toContain('waits for approval');
    expect(lastMessage(1)?.content).toBe("Error: denied: the tool policy denies 'write_file'");

    await server.close();
    server = await startFakeServer([writeCall()]);
    const json = await spawnCli(
      ['run', 'write it', '--tools', 'workspace', '--cwd', cwd, '--json'],
      { OPENAI_BASE_URL: `${server.url}/v1` },
      SLOW,
    ).done;
    const types = json.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toContain('tool_approval_request');
    expect(types.at(-2)).toBe('agent_error');
    expect(json.stderr).toContain('waiting for approval: write_file (call_W)');
  });

  it('refuses a name given to both --allow and --deny (exit 2)', async () => {
    const result = await spawnCli(['run', 'x', '--allow', 'shell', '--deny', 'shell'], {}, SLOW).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'shell' is given to both --allow and --deny");
  });
});

describe('agent-harness run: approval on a terminal', { timeout: 120_000 }, () => {
  it('asks y/n/always; y runs the call', async () => {
    server = await startFakeServer([writeCall(), textAnswer('written')]);
    const cwd = tempWorkspace();
    const run = inTerminal(['run', 'write it', '--tools', 'workspace', '--cwd', cwd], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await until(() => run.output().includes('[y]es / [n]o / [a]lways'), 'the prompt', SLOW);
    run.type('y\n');
    expect(await run.done).toBe(0);
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('hello');
    expect(run.output()).toContain('approved: write_file');
  });

  it('Ctrl-C at the prompt with two calls waiting closes it, suspends the run and prints how to resume', async () => {
    server = await startFakeServer([
      toolCallsAnswer(
        ['call_A', 'write_file', { path: 'a.txt', content: 'a' }],
        ['call_B', 'write_file', { path: 'b.txt', content: 'b' }],
      ),
    ]);
    const cwd = tempWorkspace();
    const run = inTerminal(['run', 'write them', '--tools', 'workspace', '--cwd', cwd], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await until(() => run.output().includes('[y]es / [n]o / [a]lways'), 'the prompt', SLOW);
    run.type('\x03');
    expect(await run.done, run.output()).toBe(1);
    const output = run.output();
    expect(output.split('[y]es / [n]o / [a]lways')).toHaveLength(2); // asked once, not about call_B
    expect(output).toContain('suspended');
    expect(output).toContain('waiting for approval: write_file (call_A), write_file (call_B)');
    expect(output).not.toContain('SubscriberTimeoutError');
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
  });

  it('n asks for a reason, which the model gets as Error: denied: <reason>', async () => {
    server = await startFakeServer([writeCall(), textAnswer('fine')]);
    const cwd = tempWorkspace();
    const run = inTerminal(['run', 'write it', '--tools', 'workspace', '--cwd', cwd], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await until(() => run.output().includes('[y]es / [n]o / [a]lways'), 'the prompt', SLOW);
    run.type('n\n');
    await until(() => run.output().includes('reason (optional'), 'the reason prompt', SLOW);
    run.type('not on my disk\n');
    expect(await run.done).toBe(0);
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
    expect(lastMessage(1)?.content).toBe('Error: denied: not on my disk');
  });

  it('prints hostile arguments through the printable filter', async () => {
    const hostile = 'a\u001b]0;pwned\u0007b\u001b[2Jc\u202eevil\u009b31m';
    // Raw (not JSON) arguments reach the prompt as they are, unescaped by JSON.
    server = await startFakeServer([
      {
        chunks: [
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_H', type: 'function', function: { name: 'shell', arguments: hostile } }] }, finish_reason: null }] })}\n\n`,
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n`,
          'data: [DONE]\n\n',
        ],
      },
      textAnswer('ok'),
    ]);
    const run = inTerminal(['run', 'go', '--tools', 'workspace', '--cwd', tempWorkspace()], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await until(() => run.output().includes('[y]es / [n]o / [a]lways'), 'the prompt', SLOW);
    const prompt =
      run
        .output()
        .split('\n')
        .find((line) => line.includes('? allow shell')) ?? '';
    expect(prompt).toContain('a⟨U+001B⟩]0;pwned⟨U+0007⟩b⟨U+001B⟩[2Jc⟨U+202E⟩evil⟨U+009B⟩31m');
    expect(prompt.replace(/\r/g, '')).not.toMatch(TERMINAL_CONTROL);
    run.type('n\n\n');
    expect(await run.done).toBe(0);
  });
});
