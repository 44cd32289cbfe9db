import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';
import type { RetryOptions } from '../../adapters/http/retry-policy.js';
import type { RetryNotice } from '../../adapters/http/with-retries.js';
import { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../core/agent-event.js';
import type { MessageContent } from '../../core/content-parts.js';
import { jsonLine, printableLine } from '../../core/printable.js';
import { collectToolTimings } from '../../inspector/tool-timings.js';
import { closeAll } from '../../mcp/connect-mcp.js';
import type { McpSource } from '../../mcp/mcp-source.js';
import { readJournalFile } from '../../session/journal-file.js';
import { Session } from '../../session/session.js';
import type { JournalStore } from '../../stores/journal-store.js';
import { ALLOW_NET_HELP } from '../allow-net-flag.js';
import {
  type CliApprovals,
  type ResumeFrom,
  resumeHint,
  suspendingApprovals,
  terminalApprovals,
} from '../approval-prompt.js';
import { ATTACHMENT_HELP, taskContent } from '../attachment-flags.js';
import { cliAgentParts } from '../cli-agent-parts.js';
import { cliClient } from '../cli-client.js';
import { JournalAppender } from '../journal-appender.js';
import { claimJournal } from '../journal-claim.js';
import type { Env } from '../make-client.js';
import { MCP_HELP } from '../mcp-flags.js';
import { PERMISSION_HELP, POLICY_HELP } from '../permission-flags.js';
import { humanRenderer, type Output } from '../render-human.js';
import { reportRun } from '../report-run.js';
import { parseRunOptions, type RunCliOptions } from '../run-options.js';
import { newSessionId, openRunSession } from '../run-session.js';
import { settingsMeta, withSessionSettings } from '../session-settings.js';
import { openCliStore, STORE_HELP } from '../store-flags.js';
import { ratesMeta } from '../stored-budget.js';
import { type Ticker, ToolSpinner } from '../tool-spinner.js';
import { usageWarning } from '../usage-warning.js';
import { serveAgentLive } from './live-inspector.js';

/** Help text of `agent-harness run`. */
export const RUN_HELP = `Usage: agent-harness run "<task>" [options]

Runs an agent on a real model, with the read_file tool confined to --cwd and the tools of any
MCP servers named (stopped again when the run ends). Streams the model's
text, one line per tool call, and a closing summary (turns, tokens, cost, wall time, stop reason).

Options:
  --provider P     openai (default; any OpenAI-compatible server), anthropic, or
                   ai-sdk:<package>/<model>, an installed AI SDK provider package
                   (e.g. ai-sdk:@ai-sdk/google/gemini-2.5-flash; its key from its own env var)
  --model NAME     default: gpt-4.1-mini (openai), claude-sonnet-4-6 (anthropic)
  --fallback M[,M] models of the same provider to switch to, in order, when the model is
                   rate limited, overloaded, failing, out of context or timing out
  --base-url URL   server to talk to (default: $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL, else the provider's)
  --max-turns N    stop after N model requests (default 10)
  --max-cost USD   stop once the run costs more than this (from the model's list price)
  --timeout T      wall-clock budget of the run: 90s, 5m, 1500ms (a bare number is seconds)
  --context-tokens N
                   compact older turns before a request whose context would exceed N tokens
  --context-strategy S
                   elide (default: old tool outputs become a marker) or summarise (the model
                   summarises old turns; its tokens count against --max-cost)
  --cwd DIR        the workspace the tools may read (default: the current directory)
${ATTACHMENT_HELP}
${STORE_HELP}
                   Every entry is stored as it happens: a run killed at any instant
                   continues with 'agent-harness resume ID'
  --session ID     continue the stored session ID: without a task, finish its interrupted run
                   (recorded tool calls never run again); with one, ask a follow-up. An ID the
                   store does not hold starts a new session under that id
  --journal FILE   also write the run's journal (JSON Lines, mode 0600) to FILE, entry by entry
                   as the run goes; a FILE that holds another session or that another run is
                   writing is refused
  --resume FILE    continue the session saved in the journal FILE (as --session does for a
                   stored one); the journal goes on in FILE unless --journal says otherwise
  --tools SET      read (default: read_file) or workspace (read_file, list_dir, glob, grep,
                   write_file, edit_file, shell), all confined to --cwd
  --sandbox MODE   where shell commands run: auto (default: in bubblewrap where it works, else
                   unsandboxed with a warning), bwrap (bubblewrap or refuse to start), none.
                   In bubblewrap only --cwd is writable, ~/.ssh, ~/.aws and .env files read
                   as empty, and there is no network but the --allow-net hosts
${ALLOW_NET_HELP}
${PERMISSION_HELP}
${POLICY_HELP}
  --json           print events as NDJSON (one JSON object per line) for piping
  --inspect        serve the live inspector page (machine, timeline, time travel) during the run
                   and after it until Ctrl-C; --port N / --host H choose where (default 127.0.0.1),
                   --allow-host NAME adds a host name the page may be opened by
${MCP_HELP}
Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY; a self-hosted --base-url may need none.

Examples:
  agent-harness run "Summarise README.md in three bullets"
  agent-harness run "What does src/index.ts export?" --provider anthropic --max-cost 0.05
  agent-harness run "List the TODOs" --base-url http://127.0.0.1:11434/v1 --model qwen2.5:7b
  agent-harness run "Explain package.json" --json --journal run.jsonl | jq -c .type
  agent-harness run --resume run.jsonl            # after a model_error or Ctrl-C
  agent-harness run --session 3f9c2a7d1e "And the tests?"   # a follow-up in a stored session

Exit codes: 0 final answer, 1 agent error (budget, model failure, abort, suspended) or a journal that had
to be saved elsewhere, 2 bad usage. SIGTERM and SIGHUP abort the run as Ctrl-C does; a second one
exits at once (128 + the signal's number), killing any shell command still running.
`;

/** What `run` takes from its surroundings; tests replace them. */
export interface RunDeps {
  /** Environment variables (keys, base URLs). Default `process.env`. */
  readonly env?: Env;
  /** Retry policy of the model client (tests inject `sleep`). */
  readonly retry?: RetryOptions;
  /** Whether `out` is a terminal (spinner on). Default: `out.isTTY`. */
  readonly isTTY?: boolean;
  /** Spinner clock. */
  readonly ticker?: Ticker;
  /** Abort the run on Ctrl-C (SIGINT), SIGTERM and SIGHUP. Default true. */
  readonly handleSigint?: boolean;
  /** Where approval questions are read from, when it is a terminal. Default `process.stdin`. */
  readonly stdin?: Readable & { readonly isTTY?: boolean };
  /** Environment for `$AGENT_HARNESS_STORE`; `env`, else `process.env`. */
  readonly storeEnv?: NodeJS.ProcessEnv;
}

function warningLine(err: Output): (message: string) => void {
  return (message) => err.write(`warning: ${printableLine(message)}\n`);
}

function retryLine(err: Output): (notice: RetryNotice) => void {
  return ({ retry, delayMs, error }) =>
    err.write(`retry ${retry} in ${(delayMs / 1000).toFixed(1)} s after: ${printableLine(error.message)}\n`);
}

async function setUp(
  options: RunCliOptions,
  deps: RunDeps,
  err: Output,
  sources: McpSource[],
  store: JournalStore,
): Promise<{ agent: Agent; meta: Readonly<Record<string, string>> }> {
  const client = await cliClient(options, deps.env ?? process.env, { retry: deps.retry, onRetry: retryLine(err) });
  const { config, registry } = await cliAgentParts(options, err, sources);
  const rates = config.budget;
  // The model and its rates (and its fallbacks' rates) go with a new stored session, so that
  // `inspect ID` prices it as the CLI did.
  // With the provider, base URL, workspace and tools, so that `resume ID` needs none of their flags.
  const meta = { ...settingsMeta(options, deps.env ?? process.env), ...ratesMeta(rates) };
  const session =
    options.resume === undefined
      ? await openRunSession(store, options.session, options.task, { config, meta })
      : Session.replay(await readJournalFile(options.resume, { onWarning: warningLine(err) }), config, {
          store,
          id: newSessionId(),
          meta,
        });
  await session.durable(); // a locked or unwritable store is refused before the first request
  return { agent: new Agent(config, { client, tools: registry, session, toolSources: sources }), meta };
}

/** Signals that abort a run (and still save its journal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function drive(
  agent: Agent,
  task: MessageContent,
  render: (event: AgentEvent) => void,
  sigint: boolean,
  signal: AbortSignal | undefined,
  approvals: CliApprovals,
) {
  // A terminal closing (SIGHUP) or a process manager stopping us (SIGTERM) ends the run as
  // Ctrl-C does: aborted, with the journal saved. A second one (a double Ctrl-C) exits at once,
  // through process.exit, so that the exit hook still kills the shell commands' process groups
  // (their own groups, which the terminal's signal never reached).
  let stops = 0;
  const handlers = STOP_SIGNALS.map((name) => {
    const handler = (): void => {
      stops++;
      if (stops > 1) process.exit(128 + osConstants.signals[name]);
      // Ctrl-C at the approval prompt: no more questions; the run is suspended, for resume to ask again.
      if (name === 'SIGINT' && approvals.interrupt()) return;
      agent.abort(`interrupted (${name === 'SIGINT' ? 'Ctrl-C' : name})`);
    };
    if (sigint) process.on(name, handler);
    return [name, handler] as const;
  });
  let last: AgentEvent | undefined;
  drivesRunning++;
  try {
    const options = signal ? { signal } : {};
    // No task: continue the interrupted run of a resumed session (contract §8).
    for await (const event of task === '' ? agent.resume(options) : agent.run(task, options)) {
      render(event);
      last = event;
      if (event.type === 'tool_approval_request') await approvals.onRequest(event);
    }
  } finally {
    drivesRunning--;
    if (sigint) {
      for (const [name, handler] of handlers) process.off(name, handler);
      exitOnLaterStops();
    }
  }
  return last;
}

let exitsOnLaterStops = false;
let drivesRunning = 0;

/**
 * After a run, while the CLI saves and reports, a stop signal exits at once through
 * process.exit (so the exit hook still kills shell commands' process groups) instead of the
 * signal's default action, which would skip that hook. Installed once per process; a run that
 * starts later handles its own signals.
 */
function exitOnLaterStops(): void {
  if (exitsOnLaterStops) return;
  exitsOnLaterStops = true;
  for (const name of STOP_SIGNALS) {
    process.on(name, () => {
      if (drivesRunning === 0) process.exit(128 + osConstants.signals[name]);
    });
  }
}

async function runAgent(
  agent: Agent,
  options: RunCliOptions,
  deps: RunDeps,
  io: {
    readonly out: Output;
    readonly err: Output;
    readonly signal: AbortSignal | undefined;
    readonly appender: JournalAppender | undefined;
    readonly meta: Readonly<Record<string, string>>;
  },
): Promise<number> {
  const { out, err, signal, appender, meta } = io;
  const tty = deps.isTTY ?? (out as { isTTY?: boolean }).isTTY === true;
  const spinner = !options.json && tty ? new ToolSpinner(out, deps.ticker) : undefined;
  const show = options.json ? (e: AgentEvent) => out.write(`${jsonLine(e)}\n`) : humanRenderer(out, { spinner });
  const checkUsage = usageWarning(agent.session, agent.config.budget, err);
  const render = (event: AgentEvent): void => {
    show(event);
    checkUsage();
  };
  const live = options.inspect
    ? await serveAgentLive(agent, options.task, options.inspect, out, options.json, err)
    : undefined;
  const timing = collectToolTimings(agent.stream$);
  const stdin = deps.stdin ?? process.stdin;
  const approvals =
    stdin.isTTY === true
      ? terminalApprovals(agent, { input: stdin, output: options.json ? err : out })
      : suspendingApprovals(agent);
  try {
    const started = performance.now();
    const input = taskContent(options.task, options.attachments);
    const last = await drive(agent, input, render, deps.handleSigint ?? true, signal, approvals);
    approvals.close();
    timing.stop();
    const { journal, json, model } = options;
    const code = await reportRun(
      {
        agent,
        last,
        started,
        journal,
        timings: timing.timings,
        json,
        extra: { model },
        ...(appender ? { appender } : {}),
        store: options.store,
        meta,
      },
      out,
      err,
    );
    if (last?.type === 'agent_error' && last.data.reason === 'suspended') {
      (options.json ? err : out).write(resumeHint(approvals.undecided, resumeFrom(agent, options)));
    }
    await live?.keepServing(signal);
    return code;
  } finally {
    approvals.close();
    timing.stop();
    await live?.close();
  }
}

/** Where the hint of a suspended run says to resume it from, with the flags that give the same tools. */
function resumeFrom(agent: Agent, options: RunCliOptions): ResumeFrom {
  const { id, store } = agent.session;
  const lasting = id !== undefined && store !== undefined && !options.store.startsWith('memory:');
  const flags = [
    ...(options.tools === 'workspace' ? ['--tools', 'workspace'] : []),
    ...(options.cwd === process.cwd() ? [] : ['--cwd', options.cwd]),
  ];
  return { journal: options.journal, flags, ...(lasting ? { session: { id, store: options.store } } : {}) };
}

/** Builds the `run` command with its surroundings. */
export function createRunCommand(deps: RunDeps = {}) {
  return async (
    argv: readonly string[],
    out: Output,
    signal?: AbortSignal,
    err: Output = process.stderr,
  ): Promise<number> => {
    const parsed = parseRunOptions(argv, deps.storeEnv ?? deps.env ?? process.env);
    // Before the store is touched or a model asked: the journal's folder, an existing file, the lock.
    const claim = parsed.journal === undefined ? undefined : claimJournal(parsed.journal, { resume: parsed.resume });
    // MCP servers started for this run are stopped when it ends, however it ends.
    const sources: McpSource[] = [];
    let store: JournalStore | undefined;
    let agent: Agent | undefined;
    try {
      store = await openCliStore(parsed.store);
      const options = await withSessionSettings(parsed, store, (line) => err.write(`note: ${line}\n`));
      const made = await setUp(options, deps, err, sources, store);
      agent = made.agent;
      const { meta } = made;
      const appender =
        options.journal === undefined ? undefined : await JournalAppender.start(options.journal, agent.session, meta);
      return await runAgent(agent, options, deps, { out, err, signal, appender, meta });
    } finally {
      claim?.release();
      await closeAll(sources);
      await closeStore(agent?.session, store, err);
    }
  };
}

/** Releases the session's lock and the store; a failure is a warning (the summary already said it). */
async function closeStore(session: Session | undefined, store: JournalStore | undefined, err: Output): Promise<void> {
  try {
    await session?.close();
  } catch (error) {
    if (session?.storeFailure === undefined) err.write(`warning: ${printableLine(String(error))}\n`);
  }
  await store?.close().catch(() => {});
}

/** `agent-harness run`: returns the exit code (0 answer, 1 agent error; usage errors throw). */
export const runCommand = createRunCommand();
