import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { printableLine } from '../../core/printable.js';
import { InspectionFeed } from '../../inspector/inspection-feed.js';
import { InspectorFeed } from '../../inspector/inspector-feed.js';
import { type InspectorServerOptions, isLoopback, startInspector } from '../../inspector/inspector-server.js';
import { readTimingFile } from '../../inspector/tool-timings.js';
import { waitForStop } from '../../inspector/wait-for-stop.js';
import { journalMeta, readJournalFile } from '../../session/journal-file.js';
import { isSessionId } from '../../stores/session-id.js';
import { joinNegativeValues } from '../numeric-flags.js';
import type { Output } from '../render-human.js';
import { STORE_HELP, sessionIdArg, storeUrl } from '../store-flags.js';
import { storedBudget } from '../stored-budget.js';
import { StoredInspectors } from '../stored-inspector.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness inspect`. */
export const INSPECT_HELP = `Usage: agent-harness inspect JOURNAL [--port N] [--host H [--allow-host NAME]...]
       agent-harness inspect ID [--store URL] [--port N] [--host H [--allow-host NAME]...]
       agent-harness inspect --listen [--port N] [--host H [--allow-host NAME]...]

Serves a local inspector page for a saved journal: the machine diagram with the current state
highlighted, and the run's timeline (turns, model text, tool calls with arguments, results and
durations, usage and cost, budget warnings, errors). Step or scrub through the timeline to move
the highlighted state. Nothing leaves this machine; stop with Ctrl-C.

Tool durations come from JOURNAL.timing.jsonl when it exists (the demo writes one). Costs are
at the rates of the model that answered each turn (a --fallback run's models included).
An argument that is not a file is a session id, read from the store. Its page offers "fork
here" on each step: a new session in the store holding the journal up to that step, served on
a page of its own.

With --listen, no journal: the server speaks the @statelyai/inspect WebSocket protocol, so any
XState app (an Agent too, through its inspect option) can be inspected live with
createWebSocketInspector({ url: 'ws://127.0.0.1:PORT' }).

Options:
${STORE_HELP}
  --listen  inspect XState apps that connect over WebSocket instead of a journal
  --port N  port to listen on (default: a free one)
  --host H  interface to bind (default: 127.0.0.1); beyond loopback, anyone who can reach
            it reads the run, so a warning is printed
  --allow-host NAME  a host name the page may be opened by, besides localhost and IP addresses
            (repeatable); others are refused, against DNS rebinding
`;

/** Options shared by the commands that serve an inspector. */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'allow-host': { type: 'string', multiple: true },
} as const;

/** Reads `--port`: a whole number from 0 to 65535, 0 (a free port) when absent. */
export function portOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new UsageError(`--port must be a number from 0 to 65535, got '${value}'`);
  return port;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/** The server options from `--host` / `--port` / `--allow-host` (checked before any work starts). */
export function serveOptions(values: {
  port?: string | undefined;
  host: string;
  'allow-host'?: string[] | undefined;
}): InspectorServerOptions {
  const allowedHosts = values['allow-host'] ?? [];
  for (const name of allowedHosts) {
    if (!HOST_NAME.test(name)) throw new UsageError(`--allow-host must be a host name, got '${name}'`);
  }
  return { host: values.host, port: portOption(values.port), allowedHosts };
}

/**
 * Refuses `--port`, `--host` or `--allow-host` given without `--inspect` (a {@link UsageError}
 * naming the flag): they choose where the inspector listens, and were silently ignored.
 */
export function requireInspect(argv: readonly string[], inspect: boolean): void {
  if (inspect) return;
  const flag = argv.find((arg) => /^--(port|host|allow-host)(=|$)/.test(arg))?.replace(/=.*$/, '');
  if (flag !== undefined) {
    throw new UsageError(`${flag} chooses where the inspector listens: it goes with --inspect`);
  }
}

/** Says on `err` that a server bound beyond loopback shows the run to anyone who reaches it. */
export function warnIfExposed(serve: InspectorServerOptions, err: Output): void {
  const host = serve.host ?? '127.0.0.1';
  if (isLoopback(host)) return;
  err.write(
    `warning: the inspector listens on ${printableLine(host)}, beyond this machine: anyone who can reach it reads the run's prompts and tool output (pages are served only for localhost, IP addresses and --allow-host names)\n`,
  );
}

/** Whether `inspect`'s argument names a stored session rather than a journal file. */
function isStored(file: string, store: string | undefined): boolean {
  return store !== undefined || (!existsSync(file) && isSessionId(file));
}

async function journalFeed(file: string, err: Output): Promise<InspectorFeed> {
  const path = resolve(file);
  const onWarning = (message: string): void => err.write(`warning: ${printableLine(message)}\n`);
  const journal = await readJournalFile(path, { onWarning });
  // Priced as `run` priced it when the journal's header names the model's rates, each turn at
  // the rates of the model that answered it.
  const budget = storedBudget(journalMeta(await readFile(path, 'utf8')), journal);
  return InspectorFeed.fromJournal(journal, {
    title: basename(path),
    timings: await readTimingFile(path, { onWarning }),
    ...(budget === undefined ? {} : { budget }),
  });
}

/**
 * Serves the inspector for a journal file (or, with `--listen`, for XState apps connecting over
 * WebSocket) until Ctrl-C or `signal`; returns the exit code.
 */
export async function inspectCommand(
  argv: readonly string[],
  out: Output,
  signal?: AbortSignal,
  err: Output = process.stderr,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(argv, ['port']),
    options: { ...SERVE_OPTIONS, listen: { type: 'boolean', default: false }, store: { type: 'string' } },
    allowPositionals: true,
  });
  const [file, ...extra] = positionals;
  if (values.listen ? positionals.length > 0 : file === undefined || extra.length > 0) {
    throw new UsageError(values.listen ? '--listen takes no journal file' : 'give exactly one journal file to inspect');
  }
  const serve = serveOptions(values);
  const onWarning = (message: string): void => err.write(`inspector: ${printableLine(message)}\n`);
  if (file !== undefined && isStored(file, values.store)) {
    const id = sessionIdArg(file, 'inspect: a journal file or session id');
    warnIfExposed(serve, err);
    const pages = new StoredInspectors(storeUrl(values.store), { ...serve, onWarning });
    try {
      const { server, entries } = await pages.open(id, serve.port);
      out.write(
        `inspector: session ${printableLine(id)}, ${entries} entries; "fork here" on a step (or agent-harness fork ${printableLine(id)} --at N) goes on from an earlier point\n`,
      );
      out.write(`inspector: ${server.url}\n`);
      await waitForStop(signal);
    } finally {
      await pages.close();
    }
    return 0;
  }
  const feed = file === undefined ? new InspectionFeed() : await journalFeed(file, err);
  warnIfExposed(serve, err);
  const server = await startInspector(feed, { ...serve, onWarning });
  out.write(`inspector: ${server.url}\n`);
  if (values.listen) {
    const ws = server.url.replace(/^http/, 'ws').replace(/\/$/, '');
    out.write(`inspector: XState apps connect with createWebSocketInspector({ url: '${ws}' })\n`);
  }
  await waitForStop(signal);
  await server.close();
  return 0;
}
