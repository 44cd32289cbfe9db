import { type ChildProcess, spawn } from 'node:child_process';
import { errorMessage } from '../../core/errors.js';
import { HeadTailText } from './head-tail-text.js';
import { releaseProcessGroup, trackProcessGroup } from './live-process-groups.js';

/** One process to run. */
export interface ProcessRequest {
  /** The program, and its arguments (never through a shell unless the program is one). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** After this long the process group is killed. */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  /** Characters kept of each of stdout and stderr (head and tail). */
  readonly maxStreamChars: number;
  /** Kills the process group when it fires. */
  readonly signal: AbortSignal;
}

/** How the process ended and what it printed. */
export interface ProcessOutcome {
  /** `exited`: on its own (any exit code or signal); `timeout`/`aborted`: killed by us; `failed`: never ran. */
  readonly ended: 'exited' | 'timeout' | 'aborted' | 'failed';
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why it never ran, when `ended` is `failed`. */
  readonly problem?: string;
}

/**
 * Sends `signal` to every process of the group the child leads. False when the group is gone
 * (ESRCH), so nothing is scheduled against a process id the system may hand out again.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a process as the leader of its own process group, so the group can be killed whole:
 * on timeout, on abort, when the leader exits (what it left running in the background), and
 * when the host process exits first (see {@link trackProcessGroup}).
 * Killing is SIGTERM, then SIGKILL after the grace period. Always settles: once the leader
 * is gone it waits for the output pipes at most the grace period plus half a second (a
 * process that escaped the group, with `setsid`, may hold them open).
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const stdout = new HeadTailText(request.maxStreamChars);
  const stderr = new HeadTailText(request.maxStreamChars);
  const outcome = (ended: ProcessOutcome['ended'], exit?: { code: number | null; signal: NodeJS.Signals | null }) => ({
    ended,
    exitCode: exit?.code ?? null,
    exitSignal: exit?.signal ?? null,
    stdout: stdout.text(),
    stderr: stderr.text(),
  });
  if (request.signal.aborted) return Promise.resolve(outcome('aborted'));

  return new Promise<ProcessOutcome>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(request.file, [...request.args], {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      resolve({ ...outcome('failed'), problem: errorMessage(error) });
      return;
    }
    let ended: ProcessOutcome['ended'] = 'exited';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;

    const group = child.pid;
    if (group !== undefined) trackProcessGroup(group);
    const release = (): void => {
      clearTimeout(killTimer);
      if (group !== undefined) releaseProcessGroup(group);
    };
    const terminate = (): void => {
      if (!signalGroup(child, 'SIGTERM')) {
        release();
        return;
      }
      if (killTimer !== undefined) return;
      killTimer = setTimeout(() => {
        signalGroup(child, 'SIGKILL');
        release();
      }, request.killGraceMs);
      killTimer.unref(); // the host may exit meanwhile: its exit hook kills the group instead
    };
    const stop = (why: 'timeout' | 'aborted') => (): void => {
      if (exit !== undefined || settled) return;
      ended = why;
      terminate();
    };
    const onAbort = stop('aborted');
    const timeout = setTimeout(stop('timeout'), request.timeoutMs);
    request.signal.addEventListener('abort', onAbort, { once: true });

    const settle = (result: ProcessOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      request.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      if (child.pid === undefined) settle({ ...outcome('failed'), problem: errorMessage(error) });
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timeout);
      terminate(); // what the command left running in its group
      drainTimer = setTimeout(() => settle(outcome(ended, exit)), request.killGraceMs + 500);
    });
    child.on('close', () => {
      if (exit !== undefined) settle(outcome(ended, exit));
    });
  });
}
