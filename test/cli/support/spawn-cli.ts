import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgs } from '../../support/script-bundles.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A running `agent-harness` process (the real binary, bundled for the run or through tsx). */
export interface CliProcess {
  readonly child: ChildProcess;
  /** Resolves when it ended: its exit code (or signal) and what it printed. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts the CLI in its own process, without the caller's provider variables. */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  killAfterMs = 15_000,
): CliProcess {
  const clean = { ...process.env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: undefined, ...env };
  const child = spawn(process.execPath, [...nodeArgs('src/cli/bin.ts'), ...args], { cwd: root, env: clean });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  void done.then(() => clearTimeout(timer));
  return { child, done };
}

/** Waits until `check()` holds, polling. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
