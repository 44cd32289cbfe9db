import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgs } from '../../support/script-bundles.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A CLI process in a terminal: what it printed so far, a way to type, and its exit code. */
export interface TerminalRun {
  readonly output: () => string;
  readonly type: (text: string) => boolean;
  readonly done: Promise<number | null>;
}

/**
 * Runs the CLI in a real pseudo-terminal (`script`), so that stdin is a TTY; killed after
 * `timeoutMs`. `exec`: no shell stays between `script` and the CLI. Without it, where SHELL is
 * unset (CI), dash waits as the CLI's parent in the terminal's process group, dies of Ctrl-C's
 * SIGINT, and `script` reports the shell's 130 instead of the CLI's exit code.
 */
export function inTerminal(args: readonly string[], env: Record<string, string>, timeoutMs: number): TerminalRun {
  const quoted = [process.execPath, ...nodeArgs('src/cli/bin.ts'), ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  const child = spawn('script', ['-qfec', `exec ${quoted.join(' ')}`, '/dev/null'], {
    cwd: root,
    env: { ...process.env, OPENAI_API_KEY: 'sk-test', ...env },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  void done.then(() => clearTimeout(timer));
  return { output: () => output, type: (text: string) => child.stdin.write(text), done };
}
