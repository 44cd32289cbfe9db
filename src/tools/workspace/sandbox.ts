import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError } from '../../core/errors.js';
import { bwrapArgs } from './bwrap-args.js';
import { findBwrap } from './find-bwrap.js';
import { type ProcessOutcome, type ProcessRequest, runProcess } from './run-process.js';
import { secretPaths } from './secret-paths.js';

/** Which sandbox to run commands in: `auto` (bubblewrap where it works, else none), `bwrap` (or fail), `none`. */
export type SandboxMode = 'auto' | 'bwrap' | 'none';

/** The sandbox commands actually run in. */
export type SandboxKind = 'bwrap' | 'none';

/** The sandbox modes, for flags and checks. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'bwrap', 'none'];

/** How to build a {@link Sandbox}. */
export interface SandboxOptions {
  /** Default `auto`. */
  readonly mode?: SandboxMode;
  /** The `bwrap` program: a path, or a name searched on `PATH`. Default `bwrap`. */
  readonly bwrapPath?: string;
  /**
   * Hosts the command may reach. Empty (the default): no network at all, only its own loopback.
   * `['*']`: the host's whole network. bubblewrap cannot filter by host, so any other list is
   * refused (`invalid_config`) rather than quietly allowing every host.
   */
  readonly allowedHosts?: readonly string[];
  /** More paths to hide, besides the home folder's credentials and the workspace's `.env*`: absolute, `~/…` or relative to the workspace. */
  readonly hide?: readonly string[];
  /** Paths of the session store (`Config.protectedPaths`): hidden, with their `-wal`, `-shm`, `-journal` siblings. */
  readonly protectedPaths?: readonly string[];
}

/** One command to run through a {@link Sandbox}. */
export interface SandboxedCommand extends Omit<ProcessRequest, 'file' | 'args'> {
  /** The program and its arguments. */
  readonly argv: readonly string[];
}

let emptyFile: string | undefined;

/** An empty read-only file to bind over hidden files, made once per process. */
function theEmptyFile(): string {
  if (emptyFile === undefined) {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-harness-sandbox-')), 'empty');
    writeFileSync(path, '', { mode: 0o444 });
    emptyFile = path;
  }
  return emptyFile;
}

/** `bwrap: execvp NAME: why`: the program never started inside the sandbox. */
const EXEC_FAILED = /^bwrap: execvp [^\n]*: ([^\n]*)\n?$/;

/**
 * Runs processes in a sandbox, or plainly when its kind is `none`. Under bubblewrap only the
 * command's folder is writable, `/tmp` and `/run` are private, credentials and `.env*` files
 * are empty, there is no network (unless `allowedHosts: ['*']`), and the process tree lives in
 * its own PID namespace: killing it on a time limit kills everything it started, daemons
 * included. The environment is what the caller passes: scrub it first (`scrubEnv`).
 *
 * A custom tool runs its commands through one: `const sandbox = Sandbox.create({ mode: 'bwrap' })`,
 * then `await sandbox.run({ argv, cwd, env, timeoutMs, killGraceMs, maxStreamChars, signal })`.
 */
export class Sandbox {
  /** What commands run in: `bwrap`, or `none` (also when `auto` found no working bubblewrap). */
  readonly kind: SandboxKind;
  /** Why `auto` runs without one; undefined when sandboxed or when `none` was asked for. */
  readonly fallbackReason: string | undefined;
  /** Whether commands reach the host's network (`allowedHosts: ['*']`); always true for kind `none`. */
  readonly network: boolean;
  private readonly bwrap: string | undefined;
  private readonly hide: readonly string[];

  private constructor(kind: SandboxKind, bwrap: string | undefined, options: SandboxOptions, fallbackReason?: string) {
    this.kind = kind;
    this.bwrap = bwrap;
    this.fallbackReason = fallbackReason;
    this.network = kind === 'none' || (options.allowedHosts ?? []).length > 0;
    this.hide = [
      ...(options.hide ?? []),
      ...(options.protectedPaths ?? []).flatMap((path) => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]),
    ];
  }

  /**
   * The sandbox `options.mode` asks for. `bwrap` without a working bubblewrap throws
   * `missing_dependency` (never a silent fallback); `auto` then runs without one and says why in
   * {@link Sandbox.fallbackReason}. An `allowedHosts` other than `[]` or `['*']` throws `invalid_config`.
   */
  static create(options: SandboxOptions = {}): Sandbox {
    const mode = options.mode ?? 'auto';
    if (!SANDBOX_MODES.includes(mode)) {
      throw new HarnessError(
        'invalid_config',
        `sandbox must be one of ${SANDBOX_MODES.join(', ')}, got '${String(mode)}'`,
      );
    }
    const hosts = options.allowedHosts ?? [];
    if (hosts.length > 0 && !(hosts.length === 1 && hosts[0] === '*')) {
      throw new HarnessError(
        'invalid_config',
        `allowedHosts ${JSON.stringify(hosts)}: the bubblewrap sandbox cannot filter by host; give [] for no network or ['*'] for the host's whole network`,
      );
    }
    if (mode === 'none') return new Sandbox('none', undefined, options);
    const probe = findBwrap(options.bwrapPath);
    if (probe.ok) return new Sandbox('bwrap', probe.path, options);
    if (mode === 'bwrap')
      throw new HarnessError('missing_dependency', `sandbox 'bwrap' was asked for: ${probe.problem}`);
    return new Sandbox('none', undefined, options, probe.problem);
  }

  /** Runs `command.argv` in the sandbox (plainly for kind `none`); always settles, never throws. */
  async run(command: SandboxedCommand): Promise<ProcessOutcome> {
    const { argv, ...rest } = command;
    const [program, ...args] = argv;
    if (program === undefined) return { ...emptyOutcome(), problem: 'argv must name a program' };
    if (this.bwrap === undefined) return runProcess({ ...rest, file: program, args });
    let cwd: string;
    try {
      cwd = realpathSync(command.cwd);
    } catch (error) {
      return { ...emptyOutcome(), problem: `cannot use ${command.cwd} as the folder: ${(error as Error).message}` };
    }
    const homes = [...new Set([command.env.HOME, homedir()])].filter((home): home is string => !!home);
    const layout = {
      cwd,
      hidden: secretPaths({ cwd, homes, extra: this.hide }),
      emptyFile: theEmptyFile(),
      network: this.network,
      coverRun: existsRun(),
    };
    // The host's temp folder is not writable inside: point temp files at the private /tmp.
    const env = { ...command.env, TMPDIR: '/tmp' };
    const outcome = await runProcess({ ...rest, cwd, env, file: this.bwrap, args: bwrapArgs(layout, argv) });
    const failed =
      outcome.ended === 'exited' && outcome.exitCode === 1 && outcome.stdout === ''
        ? EXEC_FAILED.exec(outcome.stderr)
        : null;
    return failed === null ? outcome : { ...outcome, ended: 'failed', stderr: '', problem: failed[1] };
  }
}

function emptyOutcome(): ProcessOutcome {
  return { ended: 'failed', exitCode: null, exitSignal: null, stdout: '', stderr: '' };
}

let hasRun: boolean | undefined;

function existsRun(): boolean {
  if (hasRun === undefined) {
    try {
      hasRun = realpathSync('/run') === '/run';
    } catch {
      hasRun = false;
    }
  }
  return hasRun;
}
