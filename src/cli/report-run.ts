import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../core/agent-event.js';
import { jsonLine, printableLine } from '../core/printable.js';
import type { ToolTiming } from '../inspector/tool-timings.js';
import type { Output } from './render-human.js';
import { type SavedJournal, saveJournal } from './save-journal.js';
import { outcomeOf, type RunSummary, summaryLine } from './summary.js';

/** What {@link reportRun} needs about a finished run. */
export interface RunReport {
  readonly agent: Agent;
  /** The run's last event. */
  readonly last: AgentEvent | undefined;
  /** `performance.now()` when the run started. */
  readonly started: number;
  /** Where to save the journal (and its timing sidecar), if anywhere. */
  readonly journal: string | undefined;
  /** Tool timings collected from the run's stream. */
  readonly timings: readonly ToolTiming[];
  /** NDJSON output instead of text. */
  readonly json: boolean;
  /** Extra fields for the JSON summary. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * Saves the journal (to a fallback file, named on `err`, when it cannot go where asked), prints
 * the summary (line or JSON), and returns the exit code: 0 for an answer, 1 for an error or for
 * a journal that is not where it was asked to go.
 */
export async function reportRun(report: RunReport, out: Output, err: Output = process.stderr): Promise<number> {
  const { session, config } = report.agent;
  const saved: SavedJournal | undefined =
    report.journal === undefined ? undefined : await saveJournal(report.journal, session.journal, report.timings, err);
  const journal = saved?.path;
  const summary: RunSummary = {
    ...outcomeOf(report.last),
    turns: session.turnCount,
    usage: session.totalUsage,
    cost: config.budget.usageCost(session.totalUsage),
    wallMs: performance.now() - report.started,
  };
  if (report.json) {
    const data = { ...summary, ...report.extra, ...(journal ? { journal } : {}) };
    out.write(`${jsonLine({ type: 'summary', data })}\n`);
  } else {
    out.write(`${printableLine(summaryLine(summary))}\n`);
    if (journal) out.write(`journal: ${printableLine(journal)} (${session.journal.length} entries)\n`);
  }
  return summary.outcome === 'answer' && saved?.asked !== false ? 0 : 1;
}
