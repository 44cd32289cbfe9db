import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/** How to start crash-writer.ts: `node --import tsx` it, or a bundle of it that starts ~5× faster. */
export interface WriterCommand {
  readonly args: readonly string[];
  /** Removes the bundle, if one was made. */
  dispose(): void;
}

/**
 * Bundles crash-writer.ts with esbuild (installed with tsx) into test/.tmp, so that each of the
 * hundreds of processes the crash tests kill starts in a fraction of tsx's time; falls back to
 * `node --import tsx crash-writer.ts` when esbuild cannot be loaded.
 */
export async function writerCommand(): Promise<WriterCommand> {
  const folder = fileURLToPath(new URL(`../../.tmp/crash-writer-${randomUUID()}/`, import.meta.url));
  try {
    const esbuild = (await import(/* @vite-ignore */ 'esbuild')) as typeof import('esbuild');
    mkdirSync(folder, { recursive: true });
    const outfile = `${folder}crash-writer.mjs`;
    await esbuild.build({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['better-sqlite3', 'pg'],
      logLevel: 'silent',
    });
    return { args: [outfile], dispose: () => rmSync(folder, { recursive: true, force: true }) };
  } catch {
    return { args: ['--import', 'tsx', script], dispose: () => rmSync(folder, { recursive: true, force: true }) };
  }
}

/** A running crash-writer.ts and what it printed so far. */
export class CrashChild {
  readonly process: ChildProcess;
  /** `ready <length>`'s length, once printed. */
  readyAt: number | undefined;
  /** The greatest length acknowledged by `ack <length>`. */
  acked = 0;
  /** Everything else it printed (an `error …` line, stderr). */
  readonly other: string[] = [];
  readonly #ready: Promise<void>;
  readonly #exit: Promise<NodeJS.Signals | number | null>;

  constructor(command: WriterCommand, args: readonly string[]) {
    this.process = spawn(process.execPath, [...command.args, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    let onReady: () => void = () => {};
    this.#ready = new Promise((resolve) => {
      onReady = resolve;
    });
    this.process.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [word, value] = line.split(' ');
        if (word === 'ack') this.acked = Math.max(this.acked, Number(value));
        else if (word === 'ready') {
          this.readyAt = Number(value);
          onReady();
        } else this.other.push(line);
      }
    });
    this.process.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.other.push(chunk));
    this.#exit = new Promise((resolve) => {
      this.process.on('close', (code, signal) => {
        onReady();
        resolve(signal ?? code);
      });
    });
  }

  /** Resolves once it holds the lock (or has exited). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** SIGKILLs it and resolves once it is reaped, with how it ended (`SIGKILL`, or an exit code). */
  kill(): Promise<NodeJS.Signals | number | null> {
    this.process.kill('SIGKILL');
    return this.#exit;
  }
}
