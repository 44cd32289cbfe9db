import { writeJournalFile } from '../adapters/journal-store.js';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../core/agent-event.js';
import { jsonLine, printableLine } from '../core/printable.js';
import { type ToolTiming, writeTimingFile } from '../inspector/tool-timings.js';
import type { Output } from './render-human.js';
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

/** Saves the journal, prints the summary (line or JSON), and returns the exit code (0 answer, 1 error). */
export async function reportRun(report: RunReport, out: Output): Promise<number> {
  const { session, config } = report.agent;
  if (report.journal !== undefined) {
    await writeJournalFile(report.journal, session.journal);
    await writeTimingFile(report.journal, report.timings);
  }
  const summary: RunSummary = {
    ...outcomeOf(report.last),
    turns: session.turnCount,
    usage: session.totalUsage,
    cost: config.budget.usageCost(session.totalUsage),
    wallMs: performance.now() - report.started,
  };
  if (report.json) {
    const data = { ...summary, ...report.extra, ...(report.journal ? { journal: report.journal } : {}) };
    out.write(`${jsonLine({ type: 'summary', data })}\n`);
  } else {
    out.write(`${printableLine(summaryLine(summary))}\n`);
    if (report.journal) out.write(`journal: ${printableLine(report.journal)} (${session.journal.length} entries)\n`);
  }
  return summary.outcome === 'answer' ? 0 : 1;
}
