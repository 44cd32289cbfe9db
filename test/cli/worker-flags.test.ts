import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { workerAgent } from '../../src/cli/restate/worker-agent.js';
import { createWorkerCommand } from '../../src/cli/restate/worker-command.js';
import { freePort } from '../support/free-port.js';
import { tempWorkspace } from '../support/workspace.js';
import { captured } from './support/cli-harness.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * `agent-harness worker --demo` with `args`, against a Restate admin URL nothing listens on: every
 * case here must end before the worker opens its store, serves or registers.
 */
async function worker(args: string[]) {
  const out = captured();
  const err = captured();
  const cwd = tempWorkspace();
  const code = await main(
    ['worker', '--demo', '--restate', 'http://127.0.0.1:9', '--store', 'memory:', '--cwd', cwd, ...args],
    out,
    err,
  );
  return { code, out: out.text(), err: err.text() };
}

/** Writes a policy module into a fresh folder; returns its path. */
function policyFile(source: string): string {
  const file = join(tempWorkspace(), 'policy.mjs');
  writeFileSync(file, source);
  return file;
}

describe('agent-harness worker --sandbox', () => {
  it('refuses a mode other than auto, bwrap or none (exit 2)', async () => {
    const { code, err } = await worker(['--sandbox', 'docker']);
    expect(code).toBe(2);
    expect(err).toBe("agent-harness worker: --sandbox must be one of auto, bwrap, none, got 'docker'\n");
  });

  it('bwrap without bubblewrap on PATH refuses to start (exit 1), before serving', async () => {
    vi.stubEnv('PATH', '/nonexistent/bin');
    const { code, out, err } = await worker(['--tools', 'workspace', '--sandbox', 'bwrap']);
    expect(code).toBe(1);
    expect(err).toContain("sandbox 'bwrap' was asked for: 'bwrap' was not found on PATH");
    expect(out).toBe('');
  });
});

describe('agent-harness worker --allow-net', () => {
  it('refuses a bad host (exit 2), and a list of hosts with --sandbox none (exit 2: nothing would enforce it), before serving', async () => {
    const bad = await worker(['--tools', 'workspace', '--allow-net', 'https://api.example.com']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'agent-harness worker: --allow-net: allowedHosts entry "https://api.example.com": give host, *.suffix or host:port, without a scheme, path, user or spaces (e.g. api.example.com:443)\n',
    );
    const unenforced = await worker(['--tools', 'workspace', '--sandbox', 'none', '--allow-net', 'api.example.com']);
    expect(unenforced.code).toBe(2);
    expect(unenforced.err).toContain("only the 'bwrap' sandbox limits the network to a list of hosts");
    expect(unenforced.out).toBe('');
  });
});

describe('agent-harness worker --policy FILE', () => {
  it('refuses a file that does not exist (exit 2)', async () => {
    const missing = join(tempWorkspace(), 'nope.mjs');
    const { code, err } = await worker(['--policy', missing]);
    expect(code).toBe(2);
    expect(err).toBe(`agent-harness worker: --policy must be an existing module file, got '${missing}'\n`);
  });

  it('refuses --yes beside it, and a module without `policy` (exit 2)', async () => {
    const both = await worker(['--yes', '--policy', policyFile('export const policy = {};\n')]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--yes and --policy FILE both set the policy');
    const none = await worker(['--policy', policyFile('export const rules = {};\n')]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('must export `policy`');
  });

  it("loads the module: its policy's keys are checked against the worker's tools, naming the file or the flag (exit 2)", async () => {
    const file = policyFile("export const policy = { rm_rf: 'allow' };\n");
    const { code, err } = await worker(['--policy', file]);
    expect(code).toBe(2);
    expect(err.startsWith(`agent-harness worker: --policy ${file}: permissions.rm_rf names neither`)).toBe(true);
    const flag = await worker(['--policy', policyFile('export const policy = {};\n'), '--allow', 'read_fiel']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('--allow read_fiel: ');
  });

  it('refuses a module whose guardrails are malformed, naming the file (exit 2)', async () => {
    const file = policyFile('export const policy = {};\nexport const guardrails = { outptu: [] };\n');
    const { code, err } = await worker(['--policy', file]);
    expect(code).toBe(2);
    expect(err).toContain(`--policy ${file}: guardrails: unknown stage 'outptu'`);
  });
});

describe('agent-harness worker --provider ai-sdk:<package>/<model>', () => {
  /** `agent-harness worker` with `args` and no --demo, against a Restate admin URL nothing listens on. */
  async function realWorker(args: string[]) {
    const out = captured();
    const err = captured();
    const cwd = tempWorkspace();
    const argv = ['worker', '--restate', 'http://127.0.0.1:9', '--store', 'memory:', '--cwd', cwd, ...args];
    const code = await main(argv, out, err);
    return { code, out: out.text(), err: err.text() };
  }

  it('serves the agent on the installed provider package’s model', async () => {
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'test-key');
    const made = await workerAgent(
      { demo: false, provider: 'ai-sdk:@ai-sdk/google/gemini-2.5-flash', cwd: tempWorkspace() },
      'memory:',
      process.env,
      captured(),
    );
    expect([made.client.provider, made.client.model]).toEqual(['google.generative-ai', 'gemini-2.5-flash']);
    expect(made.config.budget.inputRatePer1k).toBe(0); // no list price known for it (a warning says so)
    // The command itself serves it (until its signal, aborted here once it serves).
    const port = await freePort();
    const stop = new AbortController();
    stop.abort();
    const out = captured();
    const args = ['--restate', 'http://127.0.0.1:9', '--store', 'memory:', '--cwd', tempWorkspace(), '--no-register'];
    const provider = ['--provider', 'ai-sdk:@ai-sdk/google/gemini-2.5-flash', '--port', String(port)];
    await expect(createWorkerCommand()([...args, ...provider], out, stop.signal, captured())).resolves.toBe(0);
    expect(out.text()).toContain(`worker: serving http://127.0.0.1:${port}`);
  });

  it('a missing package is a usage error naming it, before serving (exit 2)', async () => {
    const { code, out, err } = await realWorker(['--provider', 'ai-sdk:@ai-sdk/not-installed-here/m1']);
    expect(code).toBe(2);
    expect(err).toContain("the package '@ai-sdk/not-installed-here' is not installed (looked in ");
    expect(out).toBe('');
  });

  it('refuses a spec without a model, a second --model and a --base-url, as run does (exit 2)', async () => {
    const none = await realWorker(['--provider', 'ai-sdk:@ai-sdk/google']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('--provider ai-sdk:@ai-sdk/google needs a model');
    const twice = await realWorker(['--provider', 'ai-sdk:@ai-sdk/google/g', '--model', 'x']);
    expect(twice.err).toContain('names the model already');
    const url = await realWorker(['--provider', 'ai-sdk:@ai-sdk/google/g', '--base-url', 'http://127.0.0.1:1']);
    expect(url.code).toBe(2);
    expect(url.err).toContain('--base-url does not apply to ai-sdk:@ai-sdk/google');
  });
});
