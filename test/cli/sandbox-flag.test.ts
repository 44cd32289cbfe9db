import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseRunOptions } from '../../src/cli/run-options.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { skipWithout } from '../support/required-tools.js';
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

/** `run --tools workspace --json` on a model that answers at once; the first event and stderr. */
async function run(args: string[]) {
  server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
  const out = captured();
  const err = captured();
  const cwd = cliWorkspace();
  const code = await main(
    ['run', 'go', '--tools', 'workspace', '--json', '--base-url', `${server.url}/v1`, '--cwd', cwd, ...args],
    out,
    err,
  );
  const first = out.text() === '' ? undefined : (JSON.parse(out.text().split('\n')[0] as string) as { data: unknown });
  return { code, first, err: err.text(), requests: server.requests.length, bodies: server.requests.map((r) => r.body) };
}

describe('agent-harness run --sandbox', () => {
  it('is auto by default, and takes auto, bwrap or none', () => {
    expect(parseRunOptions(['go']).sandbox).toBe('auto');
    expect(parseRunOptions(['go', '--sandbox', 'none']).sandbox).toBe('none');
    expect(parseRunOptions(['go', '--sandbox', 'bwrap']).sandbox).toBe('bwrap');
    expect(() => parseRunOptions(['go', '--sandbox', 'docker'])).toThrow(
      "--sandbox must be one of auto, bwrap, none, got 'docker'",
    );
  });

  it('bwrap without bubblewrap on PATH refuses to start (exit 1), before any model request', async () => {
    vi.stubEnv('PATH', '/nonexistent/bin');
    const { code, err, requests } = await run(['--sandbox', 'bwrap']);
    expect(code).toBe(1);
    expect(err).toBe(
      "agent-harness run: sandbox 'bwrap' was asked for: 'bwrap' was not found on PATH; install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap)\n",
    );
    expect(requests).toBe(0);
  });

  it('auto without bubblewrap runs unsandboxed, with a warning and agent_start saying so', async () => {
    vi.stubEnv('PATH', '/nonexistent/bin');
    const { code, first, err } = await run([]);
    expect(code).toBe(0);
    expect(err).toContain('warning: shell commands run without a sandbox: ');
    expect(first).toEqual({ type: 'agent_start', data: { input: 'go', sandbox: { shell: 'none' } } });
  });

  it('none runs unsandboxed without a warning', async () => {
    const { code, first, err } = await run(['--sandbox', 'none']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(first).toEqual({ type: 'agent_start', data: { input: 'go', sandbox: { shell: 'none' } } });
  });

  it.skipIf(skipWithout('bwrap'))('auto uses bubblewrap where it works, and agent_start says so', async () => {
    const { code, first, err } = await run([]);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(first).toEqual({ type: 'agent_start', data: { input: 'go', sandbox: { shell: 'bwrap' } } });
  });
});

describe('agent-harness run --allow-net', () => {
  it('is repeatable, none by default; a bad host or * beside others is a usage error naming it', () => {
    expect(parseRunOptions(['go']).allowNet).toEqual([]);
    expect(parseRunOptions(['go', '--allow-net', 'api.example.com', '--allow-net', '*.npmjs.org']).allowNet).toEqual([
      'api.example.com',
      '*.npmjs.org',
    ]);
    expect(parseRunOptions(['go', '--allow-net', '*']).allowNet).toEqual(['*']);
    expect(() => parseRunOptions(['go', '--allow-net', 'api.example.com:0'])).toThrow(
      '--allow-net: allowedHosts entry "api.example.com:0": port 0 is not in 1-65535',
    );
    expect(() => parseRunOptions(['go', '--allow-net', '*', '--allow-net', 'a.com'])).toThrow(
      "--allow-net '*' (the whole network) goes alone, got *, a.com",
    );
  });

  it('with --sandbox none refuses to start (exit 2): nothing would enforce the list', async () => {
    const { code, err, requests } = await run(['--sandbox', 'none', '--allow-net', 'api.example.com']);
    expect(code).toBe(2);
    expect(err).toBe(
      "agent-harness run: allowedHosts api.example.com: only the 'bwrap' sandbox limits the network to a list of hosts; sandbox 'none' cannot\n",
    );
    expect(requests).toBe(0);
  });

  it('auto without bubblewrap warns that the list does not limit the network', async () => {
    vi.stubEnv('PATH', '/nonexistent/bin');
    const { code, err } = await run(['--allow-net', 'api.example.com']);
    expect(code).toBe(0);
    expect(err).toContain(
      'warning: shell commands run without a sandbox, and --allow-net does not limit their network: ',
    );
  });

  it.skipIf(skipWithout('bwrap') || skipWithout('socat'))(
    'in bubblewrap the model is told which hosts shell commands reach',
    async () => {
      const { code, bodies } = await run([
        '--sandbox',
        'bwrap',
        '--allow-net',
        'api.example.com',
        '--allow-net',
        '*.npmjs.org',
      ]);
      expect(code).toBe(0);
      expect(JSON.stringify(bodies[0])).toContain('that reaches only these hosts: api.example.com, *.npmjs.org');
    },
  );
});
