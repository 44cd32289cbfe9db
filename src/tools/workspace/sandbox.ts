import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage, HarnessError } from '../../core/errors.js';
import { type AllowListProxy, startAllowListProxy } from './allow-list-proxy.js';
import { type BwrapLayout, bwrapArgs } from './bwrap-args.js';
import { findBwrap } from './find-bwrap.js';
import { HostAllowList } from './host-allow-list.js';
import { locateProgram } from './locate-program.js';
import { bridgedArgv, bridgeFailure, withProxyEnv } from './proxy-bridge.js';
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
   * `['*']`: the host's whole network. Any other list (`['api.example.com', '*.npmjs.org',
   * 'localhost:8080']`): no network but an HTTP(S) proxy, run in this process, that lets through
   * only those hosts (entries: `HostAllowList`); it needs `socat` on `PATH` and the `bwrap` sandbox.
   */
  readonly allowedHosts?: readonly string[];
  /** The `socat` program that forwards to the proxy inside the sandbox: a path, or a name searched on `PATH`. Default `socat`. */
  readonly socatPath?: string;
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

/** How a sandboxed command reaches the network: not at all, through the allow-list proxy, or as the host does. */
export type SandboxNetwork = 'none' | 'hosts' | 'all';

/** `bwrap: execvp NAME: why`: the program never started inside the sandbox. */
const EXEC_FAILED = /^bwrap: execvp [^\n]*: ([^\n]*)\n?$/;

/**
 * Runs processes in a sandbox, or plainly when its kind is `none`. Under bubblewrap only the
 * command's folder is writable, `/tmp` and `/run` are private, credentials and `.env*` files
 * are empty, there is no network (but for the hosts of `allowedHosts`), and the process tree lives in
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
  /**
   * How commands reach the network: `none`; `hosts`, only {@link Sandbox.allowedHosts} through
   * the proxy; `all`, as the host does (`allowedHosts: ['*']`, and always for kind `none`).
   */
  readonly network: SandboxNetwork;
  /** The hosts commands may reach when {@link Sandbox.network} is `hosts`; empty otherwise. */
  readonly allowedHosts: readonly string[];
  private readonly bwrap: string | undefined;
  private readonly hide: readonly string[];
  private readonly proxied: { readonly list: HostAllowList; readonly socat: string } | undefined;

  private constructor(
    kind: SandboxKind,
    bwrap: string | undefined,
    options: SandboxOptions,
    proxied?: { readonly list: HostAllowList; readonly socat: string },
    fallbackReason?: string,
  ) {
    this.kind = kind;
    this.bwrap = bwrap;
    this.fallbackReason = fallbackReason;
    this.proxied = kind === 'bwrap' ? proxied : undefined;
    const hosts = options.allowedHosts ?? [];
    this.network = kind === 'none' || hosts[0] === '*' ? 'all' : this.proxied !== undefined ? 'hosts' : 'none';
    this.allowedHosts = this.proxied?.list.entries ?? [];
    this.hide = [
      ...(options.hide ?? []),
      ...(options.protectedPaths ?? []).flatMap((path) => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]),
    ];
  }

  /**
   * The sandbox `options.mode` asks for. `bwrap` without a working bubblewrap throws
   * `missing_dependency` (never a silent fallback); `auto` then runs without one and says why in
   * {@link Sandbox.fallbackReason}. A bad `allowedHosts` entry throws `invalid_config` naming it;
   * a list of hosts with mode `none` throws `invalid_config` (nothing would enforce it), and
   * without `socat` (under bubblewrap) `missing_dependency`.
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
    if (!Array.isArray(hosts)) {
      throw new HarnessError('invalid_config', `allowedHosts must be an array of hosts, got ${JSON.stringify(hosts)}`);
    }
    const list =
      hosts.length === 0 || (hosts.length === 1 && hosts[0] === '*') ? undefined : HostAllowList.parse(hosts);
    if (list !== undefined && mode === 'none') {
      throw new HarnessError(
        'invalid_config',
        `allowedHosts ${list.entries.join(', ')}: only the 'bwrap' sandbox limits the network to a list of hosts; sandbox 'none' cannot`,
      );
    }
    if (mode === 'none') return new Sandbox('none', undefined, options);
    const probe = findBwrap(options.bwrapPath);
    if (!probe.ok) {
      if (mode === 'bwrap')
        throw new HarnessError('missing_dependency', `sandbox 'bwrap' was asked for: ${probe.problem}`);
      return new Sandbox('none', undefined, options, undefined, probe.problem);
    }
    if (list === undefined) return new Sandbox('bwrap', probe.path, options);
    const program = options.socatPath ?? 'socat';
    const socat = locateProgram(program, process.env.PATH ?? '');
    if (socat === undefined) {
      throw new HarnessError(
        'missing_dependency',
        `allowedHosts needs socat to forward to its proxy inside the sandbox: '${program}' was not found${program.includes('/') ? '' : ' on PATH'}; install socat (Debian, Ubuntu: apt-get install socat)`,
      );
    }
    return new Sandbox('bwrap', probe.path, options, { list, socat });
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
    const layout: Omit<BwrapLayout, 'network'> = {
      cwd,
      hidden: secretPaths({ cwd, homes, extra: this.hide }),
      emptyFile: theEmptyFile(),
      coverRun: existsRun(),
    };
    // The host's temp folder is not writable inside: point temp files at the private /tmp.
    const env = { ...command.env, TMPDIR: '/tmp' };
    const request = { ...rest, cwd, env, file: this.bwrap };
    if (this.proxied !== undefined) return this.runProxied(this.proxied, request, layout, argv);
    const outcome = await runProcess({
      ...request,
      args: bwrapArgs({ ...layout, network: this.network === 'all' ? 'host' : 'none' }, argv),
    });
    const failed =
      outcome.ended === 'exited' && outcome.exitCode === 1 && outcome.stdout === ''
        ? EXEC_FAILED.exec(outcome.stderr)
        : null;
    return failed === null ? outcome : { ...outcome, ended: 'failed', stderr: '', problem: failed[1] };
  }

  /**
   * Runs `argv` with the allow-list proxy: one proxy per call, on a Unix socket in a folder of
   * its own, closed (with every connection) when the command ends. What the proxy refused is
   * added to `stderr`, so the result says so even where the program does not show a CONNECT
   * refusal's body.
   */
  private async runProxied(
    proxied: { readonly list: HostAllowList; readonly socat: string },
    request: Omit<ProcessRequest, 'args'>,
    layout: Omit<BwrapLayout, 'network'>,
    argv: readonly string[],
  ): Promise<ProcessOutcome> {
    const folder = mkdtempSync(join(tmpdir(), 'agent-harness-proxy-'));
    let proxy: AllowListProxy | undefined;
    try {
      const proxySocket = join(folder, 'proxy.sock');
      proxy = await startAllowListProxy(proxied.list, proxySocket);
      const outcome = await runProcess({
        ...request,
        env: withProxyEnv(request.env),
        args: bwrapArgs({ ...layout, network: { proxySocket } }, bridgedArgv(proxied.socat, argv)),
      });
      const problem =
        outcome.ended === 'exited' ? bridgeFailure(outcome.exitCode, outcome.stdout, outcome.stderr) : undefined;
      if (problem !== undefined) return { ...outcome, ended: 'failed', stderr: '', problem };
      const refused = proxy.refused.map((why) => `agent-harness sandbox: refused ${why}\n`).join('');
      return refused === '' ? outcome : { ...outcome, stderr: `${outcome.stderr}${refused}` };
    } catch (error) {
      return { ...emptyOutcome(), problem: `cannot start the allow-list proxy: ${errorMessage(error)}` };
    } finally {
      await proxy?.close();
      rmSync(folder, { recursive: true, force: true });
    }
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
