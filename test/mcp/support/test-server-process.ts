import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeArgs } from '../../support/script-bundles.js';

/** The test server's source file (run bundled, or with tsx). */
export const TEST_SERVER = fileURLToPath(new URL('./test-server.ts', import.meta.url));

/** The stdio command line of the test server, as `connectMcp` takes it. */
export const testServerStdio = { command: process.execPath, args: [...nodeArgs(TEST_SERVER), '--stdio'] };

/** The stdio command line of the test server with its hostile tools (`bidi`, `huge`). */
export const hostileServerStdio = { command: process.execPath, args: [...testServerStdio.args, '--hostile'] };

/** The filesystem server's entry point (a devDependency). */
export const FILESYSTEM_SERVER = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

/** A running HTTP test server. */
export interface HttpTestServer {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Resolves when the process has ended. */
  readonly exited: Promise<void>;
  /** Kills it (if still running) and waits for the end. */
  stop(): Promise<void>;
}

/** Starts the test server over HTTP in a child process (`port` 0: a free one), with `extra` arguments (`--hostile`). */
export function startHttpTestServer(port = 0, extra: readonly string[] = []): Promise<HttpTestServer> {
  const child = spawn(process.execPath, [...nodeArgs(TEST_SERVER), '--http', String(port), ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`test server exited with ${code} before listening: ${out}`)));
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match === null) return;
      const chosen = Number(match[1]);
      resolve({
        url: `http://127.0.0.1:${chosen}/mcp`,
        port: chosen,
        child,
        exited,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

/** Whether a process with this id still exists (a zombie, dead but not yet reaped, counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether the process is gone within `ms` (a killed grandchild is reaped by init, not at once). */
export async function goneWithin(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** Ids of the live processes whose command line is exactly `argv` (Linux: read from /proc). */
export function pidsRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted && isAlive(Number(entry));
      } catch {
        return false;
      }
    })
    .map(Number);
}
