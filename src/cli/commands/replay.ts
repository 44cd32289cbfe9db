import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { jsonLine, printable, printableLine } from '../../core/printable.js';
import { divergenceSource } from '../../inspector/divergence-view.js';
import type { InspectorServerOptions } from '../../inspector/inspector-server.js';
import { startInspector } from '../../inspector/inspector-server.js';
import { waitForStop } from '../../inspector/wait-for-stop.js';
import { closeAll } from '../../mcp/connect-mcp.js';
import type { McpSource } from '../../mcp/mcp-source.js';
import { checkEntry } from '../../session/journal-check.js';
import { isSessionId } from '../../stores/session-id.js';
import { writeCassetteFile } from '../../testing/cassettes/cassette-file.js';
import { formatCassetteReport, formatDivergence } from '../../testing/cassettes/divergence.js';
import type { CassetteInput } from '../../testing/cassettes/load-cassette.js';
import { compileRedactions } from '../../testing/cassettes/redact-secrets.js';
import {
  type MakeAgent,
  type ReplayOptions,
  type ReplayRun,
  replayRun,
} from '../../testing/cassettes/replay-cassette.js';
import { updateCassette } from '../../testing/cassettes/update-cassette.js';
import { joinNegativeValues } from '../numeric-flags.js';
import type { Output } from '../render-human.js';
import { sessionAgentMaker } from '../session-agent.js';
import { openCliStore, STORE_HELP, sessionIdArg, storeUrl } from '../store-flags.js';
import { UsageError } from '../usage-error.js';
import { requireInspect, SERVE_OPTIONS, serveOptions, warnIfExposed } from './inspect.js';

/** Help text of `agent-harness replay`. */
export const REPLAY_HELP = `Usage: agent-harness replay FILE --agent MODULE (--check | --update) [--live] [--json] [--redact RE]...
       agent-harness replay ID --agent MODULE --check [--store URL] [--live] [--json]
       agent-harness replay FILE|ID --agent MODULE --check --inspect [--port N] [--host H]
       agent-harness replay FILE|ID --check [--tools SET] [--cwd DIR] [--live] [--json]

Re-drives a recorded run (a cassette written by recordCassette, a journal file, or a stored
session: any journal is a cassette) with your current code, serving the model's recorded
answers and, unless --live, the recorded tool results; reports the first step where the new
run differs (the request's messages, the tools offered, a tool call or result, a transition,
the stop reason) with a diff. No model is asked.

MODULE exports makeAgent (or a default export): (client) => Agent, building your agent around
the client it is given. Without --agent, a journal or session recorded by 'agent-harness run'
is replayed on the agent run builds from the settings it kept (provider, model, workspace, tool
set), as resume takes them; one that kept none needs --agent.

Options:
  --agent MODULE   the module that builds the agent (a .js file, or .ts under tsx)
  --tools SET, --cwd DIR
                   without --agent: the tool set and workspace instead of the stored ones
  --check          exit 0 when the run matches the recording, 1 with the report when not
  --update         rewrite the cassette FILE after an intended change: the new requests and
                   journal, the recorded answers kept; answers that no longer fit are reported
                   (exit 1, nothing written)
  --live           run the tools instead of serving their recorded results, and compare them
  --all            report every divergence, not only the first
  --ignore PATH    leave a JSON path out of the comparison (repeatable): messages[0].content,
                   tools[*].description, entry.content
  --redact RE      also redact what matches RE from the new run and the updated cassette (repeatable)
  --json           print the report as JSON
  --inspect        with --check, on a divergence: serve an inspector page (until Ctrl-C) with the
                   recorded and the new timeline side by side at the first differing step
  --port N, --host H, --allow-host NAME
                   where that page listens (as for inspect; 127.0.0.1 and a free port by default)
${STORE_HELP}
`;

/** Whether the argument names a stored session rather than a file. */
function isStored(file: string, store: string | undefined): boolean {
  return store !== undefined || (!existsSync(file) && isSessionId(file));
}

async function loadMaker(module: string): Promise<MakeAgent> {
  const loaded = (await import(pathToFileURL(resolve(module)).href)) as { makeAgent?: unknown; default?: unknown };
  const make = loaded.makeAgent ?? loaded.default;
  if (typeof make !== 'function') {
    throw new UsageError(`--agent ${printableLine(module)} exports no makeAgent function (nor a default one)`);
  }
  return make as MakeAgent;
}

async function isJournalFile(path: string): Promise<boolean> {
  const text = await readFile(path, 'utf8');
  return text.slice(0, 200).includes('"format":"agent-harness-journal"');
}

/**
 * Serves the divergence of a finished replay until Ctrl-C or `signal`: the recorded journal's
 * timeline and the new run's side by side, each at the first divergence's step.
 */
async function serveDivergence(
  run: ReplayRun,
  title: string,
  serve: InspectorServerOptions,
  out: Output,
  json: boolean,
  signal: AbortSignal | undefined,
  err: Output,
): Promise<void> {
  const found = run.report.divergence;
  if (found === undefined) return;
  const point = { entryIndex: found.step.entryIndex, kind: found.kind, message: found.message, diff: found.diff };
  const source = divergenceSource(title, run.cassette.journal, run.agent.session.journal, point);
  warnIfExposed(serve, err);
  const server = await startInspector(source, serve);
  out.write(json ? `${jsonLine({ type: 'inspector', data: { url: server.url } })}\n` : `inspector: ${server.url}\n`);
  await waitForStop(signal);
  await server.close();
}

/** `agent-harness replay FILE|ID --check|--update`: returns the exit code. */
export async function replayCommand(
  argv: readonly string[],
  out: Output,
  signal?: AbortSignal,
  err: Output = process.stderr,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(argv, ['port']),
    options: {
      agent: { type: 'string' },
      tools: { type: 'string' },
      cwd: { type: 'string' },
      check: { type: 'boolean', default: false },
      update: { type: 'boolean', default: false },
      live: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      ignore: { type: 'string', multiple: true },
      redact: { type: 'string', multiple: true },
      store: { type: 'string' },
      inspect: { type: 'boolean', default: false },
      ...SERVE_OPTIONS,
    },
    allowPositionals: true,
  });
  requireInspect(argv, values.inspect);
  const serve = serveOptions(values);
  const [source, ...extra] = positionals;
  if (source === undefined || extra.length > 0) throw new UsageError('give exactly one cassette file or session id');
  if (values.check === values.update) throw new UsageError('give one of --check (compare) and --update (rewrite)');
  if (values.inspect && values.update)
    throw new UsageError('--inspect shows a divergence of --check; it goes with --check');
  const redact = values.redact ?? [];
  try {
    compileRedactions(redact);
  } catch (error) {
    throw new UsageError(`--redact: ${(error as Error).message}`);
  }
  const stored = isStored(source, values.store);
  if (values.update && stored) throw new UsageError('--update rewrites a cassette file; a stored session is read only');
  if (values.update && (await isJournalFile(source))) {
    throw new UsageError(`--update rewrites a cassette file; ${printableLine(source)} is a journal`);
  }
  if (values.agent !== undefined && (values.tools !== undefined || values.cwd !== undefined)) {
    throw new UsageError('--tools and --cwd change the agent rebuilt from the session; --agent MODULE builds its own');
  }
  const overrides = [
    ...(values.tools === undefined ? [] : ['--tools', values.tools]),
    ...(values.cwd === undefined ? [] : ['--cwd', values.cwd]),
  ];
  let input: CassetteInput = resolve(source);
  // MCP servers started for the rebuilt agent are stopped when the replay ends.
  const sources: McpSource[] = [];
  try {
    let makeAgent: MakeAgent;
    if (stored) {
      const id = sessionIdArg(source, 'replay: a cassette file or session id');
      const url = storeUrl(values.store);
      const store = await openCliStore(url);
      try {
        const { entries, meta } = await store.read(id);
        input = entries.map((entry, i) => checkEntry(entry, i));
        makeAgent =
          values.agent === undefined
            ? await sessionAgentMaker({ id, store, storeUrl: url, meta }, overrides, err, sources)
            : await loadMaker(values.agent);
      } finally {
        await store.close();
      }
    } else {
      makeAgent =
        values.agent === undefined
          ? await sessionAgentMaker({ journal: input }, overrides, err, sources)
          : await loadMaker(values.agent);
    }
    const options = {
      makeAgent,
      tools: values.live ? ('live' as const) : ('recorded' as const),
      ...(values.ignore === undefined ? {} : { ignore: values.ignore }),
      redact,
    };
    const how: ReplayHow = { source, stored, json: values.json, all: values.all, inspect: values.inspect };
    return values.update
      ? await updateFile(input, options, how, out)
      : await checkRun(input, options, how, { serve, out, err, signal });
  } finally {
    await closeAll(sources);
  }
}

/** How `replay` was asked to run and report. */
interface ReplayHow {
  readonly source: string;
  readonly stored: boolean;
  readonly json: boolean;
  readonly all: boolean;
  readonly inspect: boolean;
}

/** `--update`: rewrites the cassette file, or reports the recorded answers that no longer fit. */
async function updateFile(input: CassetteInput, options: ReplayOptions, how: ReplayHow, out: Output): Promise<number> {
  const { source, json } = how;
  const update = await updateCassette(input, options);
  if (json)
    out.write(`${jsonLine({ updated: update.unfit.length === 0, changes: update.changes, unfit: update.unfit })}\n`);
  if (update.unfit.length > 0) {
    if (!json) {
      out.write(`cassette not updated: ${update.unfit.length} recorded answer(s) no longer fit\n`);
      for (const found of update.unfit) out.write(`${printable(formatDivergence(found))}\n`);
    }
    return 1;
  }
  await writeCassetteFile(resolve(source), update.cassette);
  if (!json)
    out.write(`cassette updated: ${update.changes.length} change(s) accepted, ${printableLine(source)} rewritten\n`);
  return 0;
}

/** `--check`: the report, and with `--inspect` the divergence served. */
async function checkRun(
  input: CassetteInput,
  options: ReplayOptions,
  how: ReplayHow,
  io: { serve: InspectorServerOptions; out: Output; err: Output; signal: AbortSignal | undefined },
): Promise<number> {
  const { source, stored, json } = how;
  const { serve, out, err, signal } = io;
  const run = await replayRun(input, { ...options, continueOnDivergence: how.all });
  const { report } = run;
  out.write(json ? `${jsonLine(report)}\n` : `${printable(formatCassetteReport(report))}\n`);
  if (how.inspect) {
    const title = `replay of ${stored ? source : basename(source)}`;
    await serveDivergence(run, title, serve, out, json, signal, err);
  }
  return report.ok ? 0 : 1;
}
