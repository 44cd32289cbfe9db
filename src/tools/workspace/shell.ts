import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS } from '../../config/config.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import type { ProcessOutcome } from './run-process.js';
import { Sandbox, type SandboxKind } from './sandbox.js';
import { SHELL_ENV_ALLOWED, scrubEnv } from './scrub-env.js';

/** Time limit of a command when the call names none. */
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
/** The longest time limit a call may ask for. */
export const MAX_SHELL_TIMEOUT_MS = 600_000;
/** Characters kept of each of stdout and stderr (first and last halves). */
export const MAX_SHELL_STREAM_CHARS = 40_000;

const schema = z.object({
  command: z
    .union([z.string().min(1), z.array(z.string()).min(1)])
    .describe('A shell command line (run with /bin/sh -c), or a program and its arguments as an array (no shell).'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_SHELL_TIMEOUT_MS)
    .optional()
    .describe(`Time limit in milliseconds. Default ${DEFAULT_SHELL_TIMEOUT_MS}.`),
});

/** Options of {@link ShellTool}. */
export interface ShellToolOptions {
  /** Time limit when the call names none. Default {@link DEFAULT_SHELL_TIMEOUT_MS}. */
  readonly defaultTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL when the process group is killed. Default 2000. */
  readonly killGraceMs?: number;
  /**
   * Host variables passed to the command besides {@link SHELL_ENV_ALLOWED}: exact names, or
   * `PREFIX*` (`['JAVA_HOME', 'NODE_*']`). Passed as they are, even if they look like secrets.
   */
  readonly keepEnv?: readonly string[];
  /** Variables added to the command's environment (over the host's). */
  readonly env?: Readonly<Record<string, string>>;
  /** Characters kept of each output stream. Default {@link MAX_SHELL_STREAM_CHARS}, less if the config's cap is smaller. */
  readonly maxStreamChars?: number;
  /** Where commands run: `Sandbox.create({ mode })`. Default: no sandbox (`mode: 'none'`). */
  readonly sandbox?: Sandbox;
}

const DESCRIPTION =
  'Run a command in the workspace folder: a shell command line (/bin/sh -c) or an array [program, ...args]. ' +
  'Returns "exit code N" then [stdout] and [stderr]; a non-zero exit code is reported, not an error. ' +
  `Time limit timeoutMs (default ${DEFAULT_SHELL_TIMEOUT_MS / 1000} s, at most ${MAX_SHELL_TIMEOUT_MS / 1000} s): ` +
  'then the command and all its child processes are killed; background processes are killed when it exits. ' +
  'No stdin. Output is cut in the middle past a size limit. The command gets only a few environment ' +
  'variables (PATH, HOME, USER, SHELL, locale, TERM, TMPDIR, TZ): no API keys, tokens or passwords.';

/** What the model is told of the bubblewrap sandbox, so it reads a refusal as one. */
function sandboxNote(sandbox: Sandbox): string {
  if (sandbox.kind === 'none') return '';
  return (
    ' It runs in a sandbox: only the workspace folder and a private /tmp are writable (elsewhere: "Read-only file system"), ' +
    `credentials (~/.ssh, ~/.aws, ...) and .env files read as empty${networkNote(sandbox)}.`
  );
}

function networkNote(sandbox: Sandbox): string {
  if (sandbox.network === 'none') return ', and there is no network';
  if (sandbox.network === 'all') return ", and it has the host's network";
  return (
    `, and there is no network but an HTTP(S) proxy (HTTP_PROXY, HTTPS_PROXY are set; use them) that reaches only these hosts: ${sandbox.allowedHosts.join(', ')}` +
    ' (other hosts get 403; direct connections fail)'
  );
}

function status(outcome: ProcessOutcome): string {
  if (outcome.exitSignal !== null) return `killed by signal ${outcome.exitSignal}`;
  return `exit code ${outcome.exitCode ?? 'unknown'}`;
}

function streams(outcome: ProcessOutcome): string {
  const parts: string[] = [];
  if (outcome.stdout !== '') parts.push(`[stdout]\n${outcome.stdout.replace(/\n$/, '')}`);
  if (outcome.stderr !== '') parts.push(`[stderr]\n${outcome.stderr.replace(/\n$/, '')}`);
  return parts.length === 0 ? '(no output)' : parts.join('\n');
}

/**
 * Runs a command in the workspace folder. A command that runs to its end is a success whatever
 * its exit code: the result starts with `exit code N` (or `killed by signal S`), then the
 * labelled `[stdout]` and `[stderr]`. A command that could not start, timed out or was aborted
 * is an error, with what it printed so far. On timeout or abort its whole process group is
 * killed (SIGTERM, then SIGKILL), and so is whatever it leaves running in the background when it
 * exits. Its environment holds only {@link SHELL_ENV_ALLOWED} of the host's variables, plus what
 * the options name or add. Without a sandbox (`options.sandbox`) the command can reach anything
 * the process can; see {@link Sandbox} for what bubblewrap takes away.
 */
export class ShellTool extends Tool<typeof schema> {
  readonly name = 'shell';
  readonly description: string;
  /** The sandbox its commands run in (`bwrap` or `none`), announced on `agent_start`. */
  readonly sandbox: SandboxKind;
  readonly kind = ToolKind.SHELL;
  readonly schema = schema;
  /**
   * The registry's limit for this tool: above the longest `timeoutMs` a call may ask for, so the
   * call's own limit decides (and the result says so); `Config.toolTimeoutMs` does not cut it short.
   */
  override readonly timeoutMs = MAX_SHELL_TIMEOUT_MS + 30_000;
  private readonly options: ShellToolOptions;
  private readonly runner: Sandbox;

  constructor(config?: Config, options: ShellToolOptions = {}) {
    super(config);
    this.options = options;
    this.runner = options.sandbox ?? Sandbox.create({ mode: 'none' });
    this.sandbox = this.runner.kind;
    this.description = DESCRIPTION + sandboxNote(this.runner);
  }

  async execute({ params, cwd, signal }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const argv = typeof params.command === 'string' ? ['/bin/sh', '-c', params.command] : params.command;
    if (argv.some((part) => part.includes('\0'))) return ToolResult.error('command must not contain NUL bytes');
    const timeoutMs = params.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    const outcome = await this.runner.run({
      argv,
      cwd: this.config?.cwd ?? cwd,
      env: { ...scrubEnv(process.env, this.options.keepEnv), ...this.options.env },
      timeoutMs,
      killGraceMs: this.options.killGraceMs ?? 2000,
      maxStreamChars: this.streamChars(),
      signal,
    });
    switch (outcome.ended) {
      case 'exited':
        return ToolResult.success(`${status(outcome)}\n${streams(outcome)}`);
      case 'failed':
        return ToolResult.error(`could not run ${JSON.stringify(argv[0])}: ${outcome.problem ?? 'unknown error'}`);
      case 'timeout':
        return ToolResult.error(
          `command timed out after ${timeoutMs} ms; its process group was killed (${status(outcome)})\n${streams(outcome)}`,
        );
      case 'aborted':
        return ToolResult.error(
          `command aborted; its process group was killed (${status(outcome)})\n${streams(outcome)}`,
        );
    }
  }

  /** Each stream's share of the observation, so both fit within the registry's cap. */
  private streamChars(): number {
    const cap = this.config?.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
    return Math.max(100, Math.min(this.options.maxStreamChars ?? MAX_SHELL_STREAM_CHARS, Math.floor((cap - 300) / 2)));
  }
}
