import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ScriptedClient } from '../../adapters/scripted-client.js';
import { Agent } from '../../agent/agent.js';
import { Config } from '../../config/config.js';
import type { AgentEvent } from '../../core/agent-event.js';
import { jsonLine } from '../../core/printable.js';
import { collectToolTimings, type ToolTiming } from '../../inspector/tool-timings.js';
import { ReadFileTool } from '../../tools/read-file.js';
import { ToolRegistry } from '../../tools/registry.js';
import { DEMO_FILES, DEMO_TASK, demoScript } from '../demo-script.js';
import { claimJournal } from '../journal-claim.js';
import { journalPath } from '../journal-path.js';
import { joinNegativeValues } from '../numeric-flags.js';
import { humanRenderer, type Output } from '../render-human.js';
import { reportRun } from '../report-run.js';
import { requireInspect, SERVE_OPTIONS, serveOptions } from './inspect.js';
import { type LiveInspector, serveAgentLive } from './live-inspector.js';

/** Help text of `agent-harness demo`. */
export const DEMO_HELP = `Usage: agent-harness demo [--journal FILE] [--json] [--inspect [--port N]]

Runs an agent offline: a scripted model reads files in a temporary workspace with the real
read_file tool. Prints the streamed events and a summary line, and saves the journal (and tool
durations beside it, in FILE.timing.jsonl).

Options:
  --journal FILE  where to save the journal (default: demo-journal.jsonl; written over)
  --json          print events as NDJSON instead of text
  --inspect       serve the live inspector page during the run, and after it until Ctrl-C
  --port N        with --inspect: the inspector's port (default: a free one); --host H to bind
                  elsewhere (with --allow-host NAME for each host name the page may be opened by).
                  Without --inspect they are a usage error
`;

/** Runs the demo; returns the exit code (0 answer, 1 agent error). */
export async function demoCommand(
  argv: readonly string[],
  out: Output,
  signal?: AbortSignal,
  err: Output = process.stderr,
): Promise<number> {
  const { values } = parseArgs({
    args: joinNegativeValues(argv, ['port']),
    options: {
      journal: { type: 'string', default: 'demo-journal.jsonl' },
      json: { type: 'boolean', default: false },
      inspect: { type: 'boolean', default: false },
      ...SERVE_OPTIONS,
    },
    strict: true,
  });
  requireInspect(argv, values.inspect);
  const serve = serveOptions(values);
  const journal = journalPath(values.journal);
  // The demo's journal is its output: written over on each run, but still never by two at once.
  const claim = claimJournal(journal, { overwrite: true });
  const workspace = mkdtempSync(join(tmpdir(), 'agent-harness-demo-'));
  let live: LiveInspector | undefined;
  let timing: { timings: ToolTiming[]; stop: () => void } | undefined;
  try {
    for (const [name, text] of Object.entries(DEMO_FILES)) writeFileSync(join(workspace, name), text);
    const config = new Config({ cwd: workspace, maxTurns: 4 });
    const registry = new ToolRegistry(config).register(new ReadFileTool(config));
    const agent = new Agent(config, { client: new ScriptedClient(demoScript()), tools: registry });
    timing = collectToolTimings(agent.stream$);
    live = values.inspect ? await serveAgentLive(agent, 'demo (live)', serve, out, values.json, err) : undefined;
    const render = values.json ? (e: AgentEvent) => out.write(`${jsonLine(e)}\n`) : humanRenderer(out);
    const started = performance.now();
    let last: AgentEvent | undefined;
    for await (const event of agent.run(DEMO_TASK)) {
      render(event);
      last = event;
    }
    timing.stop();
    const code = await reportRun(
      { agent, last, started, journal, timings: timing.timings, json: values.json },
      out,
      err,
    );
    await live?.keepServing(signal);
    return code;
  } finally {
    timing?.stop();
    await live?.close();
    claim.release();
    rmSync(workspace, { recursive: true, force: true });
  }
}
