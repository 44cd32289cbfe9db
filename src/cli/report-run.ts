import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../core/agent-event.js';
import { jsonLine, printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';
import type { ToolTiming } from '../inspector/tool-timings.js';
import type { JournalAppender } from './journal-appender.js';
import type { Output } from './render-human.js';
import { type SavedJournal, saveJournal, saveTimings } from './save-journal.js';
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
  /** Set when the journal was appended to `journal` as the run went; saved whole only if that failed. */
  readonly appender?: JournalAppender;
  /** The store's URL, if any (named in the summary with the session's id, its password masked). */
  readonly store?: string;
  /** The journal header's metadata (the model and its rates). */
  readonly meta?: Readonly<Record<string, string>>;
}

/**
 * Saves the journal (to a fallback file, named on `err`, when it cannot go where asked), prints
 * the summary (line or JSON), and returns the exit code: 0 for an answer, 1 for an error or for
 * a journal that is not where it was asked to go.
 */
export async function reportRun(report: RunReport, out: Output, err: Output = process.stderr): Promise<number> {
  const { session, config } = report.agent;
  const { appender } = report;
  let saved: SavedJournal | undefined;
  if (report.journal !== undefined && appender?.intact()) {
    appender.close(); // every entry is in the file already
    await saveTimings(report.journal, report.timings, err);
    saved = { path: report.journal, asked: true };
  } else if (report.journal !== undefined) {
    appender?.close();
    saved = await saveJournal(report.journal, session.journal, report.timings, err, report.meta);
  }
  const journal = saved?.path;
  const summary: RunSummary = {
    ...outcomeOf(report.last),
    turns: session.turnCount,
    usage: session.totalUsage,
    cost: config.budget.usageCost(session.totalUsage),
    wallMs: performance.now() - report.started,
  };
  if (report.json) {
    const stored = shownSession(report) === undefined ? {} : { session: session.id };
    const data = { ...summary, ...report.extra, ...stored, ...(journal ? { journal } : {}) };
    out.write(`${jsonLine({ type: 'summary', data })}\n`);
  } else {
    const shown = shownSession(report);
    if (shown !== undefined) out.write(`${printableLine(shown)}\n`);
    out.write(`${printableLine(summaryLine(summary))}\n`);
    if (journal) out.write(`journal: ${printableLine(journal)} (${session.journal.length} entries)\n`);
  }
  return summary.outcome === 'answer' && saved?.asked !== false ? 0 : 1;
}

/**
 * The line naming a run's stored session (`session: ID (N entries in STORE)`), unless the store is
 * a `memory:` one, which ends with the process.
 */
function shownSession(report: RunReport): string | undefined {
  const { session } = report.agent;
  const store = session.store;
  if (session.id === undefined || store === undefined || store.location.startsWith('memory:')) return undefined;
  const kept =
    session.storeFailure === undefined ? `${session.journalLength} entries` : `store failed; it holds what was durable`;
  return `session: ${session.id} (${kept} in ${report.store === undefined ? store.location : redactPassword(report.store)})`;
}
