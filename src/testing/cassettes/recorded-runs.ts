import { OUTPUT_RETRY_PREFIX } from '../../agent/output-check.js';
import type { MessageContent } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { DEFAULT_OUTPUT_RETRIES } from '../../machines/output-rules.js';

/** One run of a recorded session, as the replay starts it again. */
export interface RecordedRun {
  /** The user message that started it (`agent.run(input)`); undefined for `agent.resume()`. */
  readonly input?: MessageContent;
  /** Decisions the resume was given up front (`resume({ approvals })`). */
  readonly approvals?: Readonly<Record<string, 'approve' | 'deny'>>;
  /** Whether it ended `suspended` while calls waited for approval. */
  readonly suspended: boolean;
  /**
   * The `outputRetries` it is run with when it asked for structured output (its journal shows a
   * parsed `output`, a failing answer sent back, or `output_invalid`); undefined when it did not.
   */
  readonly outputRetries?: number;
  /** Its first journal entry. */
  readonly start: number;
  /** One past its last journal entry. */
  readonly end: number;
}

const endsRun = (entry: JournalEntry): boolean => entry.type === 'agent_end' || entry.type === 'agent_error';

/** Whether an entry starts the run's own steps (what comes before is the run's setup). */
const startsSteps = (entry: JournalEntry): boolean => entry.type === 'turn_start' || entry.type === 'transition';

/**
 * A recorded journal's runs, in order: each ends at its `agent_end`/`agent_error` (the last may
 * be cut short). A run whose setup holds a user message of the user's (not a harness-authored
 * one) was `agent.run(message)`; any other was `agent.resume()`, after a suspend or a failure,
 * with the decisions journaled before its first step given up front.
 */
export function recordedRuns(journal: readonly JournalEntry[]): RecordedRun[] {
  const runs: RecordedRun[] = [];
  let start = 0;
  for (let index = 0; index < journal.length; index++) {
    const entry = journal[index] as JournalEntry;
    if (endsRun(entry) || index === journal.length - 1) {
      runs.push(runOf(journal, start, index + 1));
      start = index + 1;
    }
  }
  return runs;
}

/**
 * The `outputRetries` that make a structured run go as recorded: the failing answers it sent
 * back when it ended `output_invalid`, else at least the default; undefined for a run that did
 * not ask for structured output.
 */
function outputRetriesOf(journal: readonly JournalEntry[], start: number, end: number): number | undefined {
  let sentBack = 0;
  for (let index = start; index < end; index++) {
    const entry = journal[index] as JournalEntry;
    const note = entry.type === 'user_message' && entry.author === 'harness' ? entry.content : undefined;
    if (typeof note === 'string' && note.startsWith(OUTPUT_RETRY_PREFIX)) sentBack++;
  }
  const last = journal[end - 1];
  if (last?.type === 'agent_error' && last.reason === 'output_invalid') return sentBack;
  const parsed = last?.type === 'agent_end' && last.output !== undefined;
  return parsed || sentBack > 0 ? Math.max(sentBack, DEFAULT_OUTPUT_RETRIES) : undefined;
}

function runOf(journal: readonly JournalEntry[], start: number, end: number): RecordedRun {
  const last = journal[end - 1];
  const suspended = last?.type === 'agent_error' && last.reason === 'suspended';
  const outputRetries = outputRetriesOf(journal, start, end);
  const run = { suspended, start, end, ...(outputRetries === undefined ? {} : { outputRetries }) };
  const approvals: Record<string, 'approve' | 'deny'> = {};
  for (let index = start; index < end; index++) {
    const entry = journal[index] as JournalEntry;
    if (startsSteps(entry)) break;
    if (entry.type === 'user_message' && entry.author === undefined) return { input: entry.content, ...run };
    if (entry.type === 'approval_decision' && entry.rule === undefined) {
      approvals[entry.callId] = entry.approved ? 'approve' : 'deny';
    }
  }
  return Object.keys(approvals).length > 0 ? { approvals, ...run } : run;
}
