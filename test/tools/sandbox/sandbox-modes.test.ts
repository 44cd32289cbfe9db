import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HarnessError } from '../../../src/core/errors.js';
import { Agent, Config, ScriptedClient, ToolRegistry } from '../../../src/index.js';
import { Sandbox, ShellTool, workspaceTools } from '../../../src/tools/workspace/index.js';
import { collect, textTurn } from '../../support/fixtures.js';
import { bwrapPath, skipWithout, socatPath } from '../../support/required-tools.js';
import { tempWorkspace } from '../../support/workspace.js';

const MISSING = '/nonexistent/bin/bwrap';

/** What `create` threw. */
function thrown(make: () => unknown): HarnessError {
  try {
    make();
  } catch (error) {
    if (HarnessError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

/** The `agent_start` of a one-turn run with these tools. */
async function firstEvent(config: Config, tools: ToolRegistry) {
  const agent = new Agent(config, { client: new ScriptedClient([textTurn('ok')]), tools });
  return (await collect(agent.run('go')))[0];
}

describe("sandbox 'bwrap' asked for and missing", () => {
  it('is a missing_dependency error when the tools are built, naming the path and how to install it', () => {
    const config = new Config({ cwd: tempWorkspace() });
    const error = thrown(() => workspaceTools(config, { sandbox: { mode: 'bwrap', bwrapPath: MISSING } }));
    expect(error.reason).toBe('missing_dependency');
    expect(error.message).toBe(
      `sandbox 'bwrap' was asked for: '${MISSING}' was not found; install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap)`,
    );
  });

  it('is the same error when no bwrap is on PATH', () => {
    vi.stubEnv('PATH', '/nonexistent/bin');
    try {
      const error = thrown(() => workspaceTools(new Config({ cwd: tempWorkspace() }), { sandbox: 'bwrap' }));
      expect(error.reason).toBe('missing_dependency');
      expect(error.message).toContain("'bwrap' was not found on PATH");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is an error too when bwrap is there but cannot make the namespaces', () => {
    const error = thrown(() => Sandbox.create({ mode: 'bwrap', bwrapPath: '/bin/false' }));
    expect(error.reason).toBe('missing_dependency');
    expect(error.message).toMatch(
      /^sandbox 'bwrap' was asked for: '\/bin\/false' cannot make a sandbox here: exit code 1/,
    );
  });
});

describe("sandbox 'auto' and 'none'", () => {
  it("auto without bwrap runs unsandboxed and says so on agent_start ({ shell: 'none' }) and in fallbackReason", async () => {
    const sandbox = Sandbox.create({ mode: 'auto', bwrapPath: MISSING });
    expect(sandbox.kind).toBe('none');
    expect(sandbox.fallbackReason).toContain(`'${MISSING}' was not found`);
    const config = new Config({ cwd: tempWorkspace() });
    const tools = new ToolRegistry(config).register(...workspaceTools(config, { sandbox: { bwrapPath: MISSING } }));
    expect(await firstEvent(config, tools)).toEqual({
      type: 'agent_start',
      data: { input: 'go', sandbox: { shell: 'none' } },
    });
  });

  it('none is the default of workspaceTools and of ShellTool: no sandbox, and the description does not claim one', () => {
    const config = new Config({ cwd: tempWorkspace() });
    const shell = workspaceTools(config).find((tool) => tool.name === 'shell');
    expect(shell?.sandbox).toBe('none');
    expect(shell?.description).not.toContain('sandbox');
    expect(new ShellTool(config).sandbox).toBe('none');
  });

  it('a run without command-running tools announces no sandbox', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    expect(await firstEvent(config, new ToolRegistry(config))).toEqual({
      type: 'agent_start',
      data: { input: 'go' },
    });
  });

  it('refuses an allow-list of hosts it cannot enforce, and an unknown mode', () => {
    const hosts = thrown(() => Sandbox.create({ mode: 'none', allowedHosts: ['registry.npmjs.org'] }));
    expect(hosts.reason).toBe('invalid_config');
    expect(hosts.message).toBe(
      "allowedHosts registry.npmjs.org: only the 'bwrap' sandbox limits the network to a list of hosts; sandbox 'none' cannot",
    );
    const mode = thrown(() => Sandbox.create({ mode: 'docker' as never }));
    expect(mode.message).toBe("sandbox must be one of auto, bwrap, none, got 'docker'");
  });
});

describe.skipIf(skipWithout('bwrap'))('sandbox with bwrap installed', () => {
  it('an allow-list of hosts without socat is a missing_dependency error naming how to install it', () => {
    const error = thrown(() =>
      Sandbox.create({
        mode: 'bwrap',
        bwrapPath: bwrapPath(),
        allowedHosts: ['api.example.com'],
        socatPath: '/nonexistent/socat',
      }),
    );
    expect(error.reason).toBe('missing_dependency');
    expect(error.message).toBe(
      "allowedHosts needs socat to forward to its proxy inside the sandbox: '/nonexistent/socat' was not found; install socat (Debian, Ubuntu: apt-get install socat)",
    );
  });

  it('network is none by default, hosts with a list, all with ["*"]', () => {
    const make = (allowedHosts: string[]) =>
      Sandbox.create({ mode: 'bwrap', bwrapPath: bwrapPath(), socatPath: socatPath(), allowedHosts });
    expect(make([])).toMatchObject({ network: 'none', allowedHosts: [] });
    expect(make(['API.example.com', 'localhost:8080'])).toMatchObject({
      network: 'hosts',
      allowedHosts: ['API.example.com', 'localhost:8080'],
    });
    expect(make(['*'])).toMatchObject({ network: 'all', allowedHosts: [] });
  });

  it("auto uses it and says so on agent_start ({ shell: 'bwrap' }) and in the tool's description", async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const tools = new ToolRegistry(config).register(...workspaceTools(config, { sandbox: { bwrapPath: bwrapPath() } }));
    expect(await firstEvent(config, tools)).toEqual({
      type: 'agent_start',
      data: { input: 'go', sandbox: { shell: 'bwrap' } },
    });
    expect(tools.get('shell')?.description).toContain('It runs in a sandbox');
  });

  it('runs a custom tool\'s command through Sandbox.run; a program that does not exist is "failed", not exit code 1', async () => {
    const sandbox = Sandbox.create({ mode: 'bwrap', bwrapPath: bwrapPath() });
    const ws = tempWorkspace();
    const request = {
      cwd: ws,
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 10_000,
      killGraceMs: 500,
      maxStreamChars: 1000,
    };
    const signal = new AbortController().signal;
    expect(
      await sandbox.run({ ...request, signal, argv: ['/bin/sh', '-c', 'echo $TMPDIR; touch made'] }),
    ).toMatchObject({
      ended: 'exited',
      exitCode: 0,
      stdout: '/tmp\n',
    });
    expect(existsSync(join(ws, 'made'))).toBe(true);
    expect(await sandbox.run({ ...request, signal, argv: ['no-such-program-xyz'] })).toMatchObject({
      ended: 'failed',
      problem: 'No such file or directory',
    });
  });
});
