import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError } from '../core/errors.js';

/** A local `restate-server` on 127.0.0.1: its own ports and base folder, telemetry off. */
export interface DevServer {
  /** Where runs are submitted (`submitRun`, `run --restate`). */
  readonly ingressUrl: string;
  /** Where workers register (`registerDeployment`, `worker --restate`). */
  readonly adminUrl: string;
  /** What it printed (for a failing test's message). */
  log(): string;
  /** kill -9, then start again on the same folder and ports (a server crash and restart). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}

/** The server binary that `@restatedev/restate-server` installs for this platform. */
function serverBinary(): string {
  const require = createRequire(import.meta.url);
  const name = `@restatedev/restate-server-${process.platform}-${process.arch}`;
  try {
    return require.resolve(`${name}/bin/restate-server`);
  } catch (error) {
    throw new HarnessError(
      'missing_dependency',
      `a local Restate server needs the package '@restatedev/restate-server' (with ${name}); run: npm i -D @restatedev/restate-server`,
      { cause: error },
    );
  }
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a single-node Restate server for development and tests, from the npm package
 * `@restatedev/restate-server` (offline, telemetry off), on free 127.0.0.1 ports in a new
 * temporary folder, and waits until its admin API and ingress answer. Not for production: run
 * the server (or a cluster) as its docs say.
 */
export async function startDevServer(): Promise<DevServer> {
  const binary = serverBinary();
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-restate-'));
  const [ingress, admin, fabric] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_ADMIN__DISABLE_WEB_UI: 'true',
    RESTATE_DEFAULT_NUM_PARTITIONS: '2',
    RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256MiB',
    RESTATE_LOG_FORMAT: 'compact',
    RESTATE_LOG_DISABLE_ANSI_CODES: 'true',
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}`,
    // Retry a lost execution soon (50 ms, then up to 1 s apart) instead of the default 0.5 s-1 min.
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '50ms',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '1s',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS: '1000',
  };
  let output = '';
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    child = spawn(binary, ['--base-dir', dir, '--node-name', 'n1', '--no-logo'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new HarnessError('restate_error', `restate-server exited (${child.exitCode}):\n${output}`);
      const up = await Promise.all([
        fetch(`http://127.0.0.1:${admin}/health`).then(
          (r) => r.ok,
          () => false,
        ),
        fetch(`http://127.0.0.1:${ingress}/restate/health`).then(
          (r) => r.ok,
          () => false,
        ),
      ]);
      if (up.every(Boolean)) return;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new HarnessError('restate_error', `restate-server did not come up in 60 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const kill = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  await start();
  return {
    ingressUrl: `http://127.0.0.1:${ingress}`,
    adminUrl: `http://127.0.0.1:${admin}`,
    log: () => output,
    restart: async () => {
      await kill();
      await start();
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
