import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type DevServer, registerDeployment, startDevServer } from '../../src/restate.js';
import { startTcpBalancer, type TcpBalancer } from '../../test/support/tcp-balancer.js';
import { type ScaleOptions, scaleFlags } from './options.js';
import type { WorkerMessage, WorkerReport } from './restate-worker-report.js';

/** A Restate server and bench workers behind one TCP balancer, registered as one deployment. */
export interface BenchCluster {
  readonly ingressUrl: string;
  /** Each worker collects garbage, takes its idle RSS and starts measuring. */
  baseline(): Promise<void>;
  /** What each worker measured since its baseline. */
  reports(): Promise<WorkerReport[]>;
  stop(): Promise<void>;
}

type Answer<T extends WorkerMessage['type']> = Extract<WorkerMessage, { type: T }>;

/** Waits for the worker's next message of type `type`; rejects if it exits first. */
function next<T extends WorkerMessage['type']>(child: ChildProcess, type: T): Promise<Answer<T>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage): void => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Answer<T>);
    };
    const onExit = (code: number | null): void => {
      child.off('message', onMessage);
      reject(new Error(`bench:scale: a Restate worker exited (${code}) before '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

// The SDK logs two INFO lines per invocation by default: WARN keeps their cost out of the figures.
function startWorker(options: ScaleOptions, streams: number): { child: ChildProcess; ready: Promise<number> } {
  const script = fileURLToPath(new URL('restate-worker.js', import.meta.url));
  const execArgv = process.execArgv.includes('--expose-gc') ? process.execArgv : [...process.execArgv, '--expose-gc'];
  const child = fork(script, scaleFlags(options), {
    execArgv,
    env: { RESTATE_LOGGING: 'WARN', ...process.env, PORT: '0', MAX_STREAMS: String(streams) },
    stdio: 'inherit',
  });
  return { child, ready: next(child, 'ready').then((message) => message.port) };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts a Restate server (`startDevServer`) and `count` workers behind one balancer, each
 * taking at most `streams` concurrent invocations per HTTP/2 connection.
 */
export async function startBenchCluster(count: number, options: ScaleOptions, streams: number): Promise<BenchCluster> {
  const server: DevServer = await startDevServer();
  const children: ChildProcess[] = [];
  let balancer: TcpBalancer | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all(children.map(exited));
    await balancer?.close();
    await server.stop();
  };
  try {
    const started = Array.from({ length: count }, () => startWorker(options, streams));
    children.push(...started.map((worker) => worker.child));
    const ports = await Promise.all(started.map((worker) => worker.ready));
    balancer = await startTcpBalancer(() => ports);
    await registerDeployment(server.adminUrl, balancer.url);
  } catch (error) {
    await stop();
    throw error;
  }
  const ask = async <T extends WorkerMessage['type']>(message: WorkerMessage, answer: T): Promise<Answer<T>[]> =>
    Promise.all(
      children.map((child) => {
        const reply = next(child, answer);
        child.send(message);
        return reply;
      }),
    );
  return {
    ingressUrl: server.ingressUrl,
    baseline: async () => {
      await ask({ type: 'baseline' }, 'baseline-taken');
    },
    reports: async () => (await ask({ type: 'report' }, 'report-taken')).map((message) => message.report),
    stop,
  };
}
