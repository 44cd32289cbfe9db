import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DevServer as RestateServer,
  startDevServer as startRestateServer,
} from '../../../src/restate/dev-server.js';
import { registerDeployment } from '../../../src/restate.js';
import { freePort } from '../../support/free-port.js';
import { nodeArgs, ROOT } from '../../support/script-bundles.js';
import { startTcpBalancer, type TcpBalancer } from '../../support/tcp-balancer.js';

/** One worker process of {@link Cluster}. */
export interface WorkerProcess {
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
}

/** A Restate server and worker processes behind one balancer, registered as one deployment. */
export interface Cluster {
  readonly server: RestateServer;
  readonly ingressUrl: string;
  readonly store: string;
  readonly effects: string;
  readonly workers: WorkerProcess[];
  /** What every worker printed, for a failing test's message. */
  outputs(): string;
  /** Lines the `effect` tool wrote (`start TAG N pid` / `end TAG N pid`, TAG the task). */
  effectLines(): string[];
  /** Starts one more worker (with extra env: a changed worker's code) and waits until it serves. */
  startWorker(env?: Record<string, string>): Promise<WorkerProcess>;
  /** kill -9 one worker and drop it from the balancer. */
  killWorker(worker: WorkerProcess): Promise<void>;
  /** Kills every worker and starts `count` new ones with `env`. */
  replaceWorkers(count: number, env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a Restate server and `count` workers with `env` (see worker-main.ts). */
export async function startCluster(count: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-restate-cluster-'));
  const store = `sqlite:${join(dir, 'journal.db')}`;
  const effects = join(dir, 'effects.log');
  const server = await startRestateServer();
  const workers: WorkerProcess[] = [];
  let balancer: TcpBalancer | undefined;
  const startWorker = async (extra: Record<string, string> = {}): Promise<WorkerProcess> => {
    const port = await freePort();
    const child = spawn(process.execPath, nodeArgs('test/restate/support/worker-main.ts'), {
      cwd: ROOT,
      env: { ...process.env, STORE: store, EFFECTS: effects, PORT: String(port), ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-50_000);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-50_000);
    });
    const deadline = Date.now() + 60_000;
    while (!output.includes('ready ')) {
      if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`worker did not start in 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const worker = { port, child, output: () => output };
    workers.push(worker);
    return worker;
  };
  const killWorker = (worker: WorkerProcess): Promise<void> =>
    new Promise((resolve) => {
      const index = workers.indexOf(worker);
      if (index >= 0) workers.splice(index, 1);
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
      worker.child.once('exit', () => resolve());
      worker.child.kill('SIGKILL');
    });
  try {
    for (let i = 0; i < count; i++) await startWorker();
    balancer = await startTcpBalancer(() => workers.map((worker) => worker.port));
    await registerDeployment(server.adminUrl, balancer.url);
  } catch (error) {
    for (const worker of [...workers]) await killWorker(worker);
    await server.stop();
    throw error;
  }
  return {
    server,
    ingressUrl: server.ingressUrl,
    store,
    effects,
    workers,
    outputs: () =>
      `${workers.map((worker) => worker.output()).join('\n---\n')}\n--- server:\n${server.log().slice(-5000)}`,
    effectLines: () => {
      try {
        return readFileSync(effects, 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    startWorker,
    killWorker,
    replaceWorkers: async (n, extra = {}) => {
      for (const worker of [...workers]) await killWorker(worker);
      for (let i = 0; i < n; i++) await startWorker(extra);
    },
    stop: async () => {
      for (const worker of [...workers]) await killWorker(worker);
      await balancer?.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
