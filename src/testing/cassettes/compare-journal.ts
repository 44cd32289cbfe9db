import type { JournalEntry } from '../../core/journal-entry.js';
import type { DivergenceKind } from './divergence.js';
import type { SecretRedactor } from './redact-secrets.js';
import { type StepMatcher, stepAt } from './step-matcher.js';

/** The kind of step a journal entry records. */
export function entryKind(entry: JournalEntry): DivergenceKind {
  switch (entry.type) {
    case 'transition':
      return 'transition';
    case 'agent_end':
    case 'agent_error':
      return 'stop reason';
    case 'tool_result':
      return 'tool result';
    case 'assistant_message':
    case 'tool_started':
    case 'approval_request':
    case 'approval_decision':
      return 'tool call';
    default:
      return 'journal entry';
  }
}

/** Whether a journal ends a run (`agent_end`/`agent_error` last): otherwise its recording was cut short. */
export function endsARun(journal: readonly JournalEntry[]): boolean {
  const last = journal.at(-1)?.type;
  return last === 'agent_end' || last === 'agent_error';
}

/**
 * Compares the new run's journal with the recorded one, entry by entry, up to `limit` (where
 * the replay stopped). Entries of different types end the comparison (what follows no longer
 * lines up); entries of the same type that differ are each a divergence.
 */
export function compareJournals(
  recorded: readonly JournalEntry[],
  actual: readonly JournalEntry[],
  matcher: StepMatcher,
  redactor: SecretRedactor,
  limit: number = Number.POSITIVE_INFINITY,
): void {
  const end = Math.min(recorded.length, actual.length, limit);
  for (let i = 0; i < end; i++) {
    const expected = recorded[i] as JournalEntry;
    const now = redactor.value(actual[i] as JournalEntry);
    if (expected === now) continue;
    const kind = entryKind(expected);
    if (
      expected.type !== now.type ||
      !matcher.same(kind, { entry: expected }, { entry: now }, () => stepAt(actual, i))
    ) {
      const message =
        expected.type === now.type
          ? `entry ${i} (${expected.type}) differs from the recording`
          : `entry ${i} is ${now.type}; the recording has ${expected.type}`;
      matcher.add(stepAt(actual, i), kind, expected, now, message);
      if (expected.type !== now.type || !matcher.keepGoing) return;
    }
  }
  if (limit <= end || recorded.length === actual.length) return;
  if (actual.length > recorded.length) {
    const extra = actual[recorded.length] as JournalEntry;
    const step = stepAt(actual, recorded.length);
    if (!endsARun(recorded)) {
      matcher.add(
        step,
        'recording ended',
        undefined,
        extra,
        `recording ended at step ${recorded.length}: the run went on with ${extra.type}`,
      );
    } else {
      matcher.add(
        step,
        entryKind(extra),
        undefined,
        extra,
        `the run went on past the recording's end with ${extra.type}`,
      );
    }
    return;
  }
  const missing = recorded[actual.length] as JournalEntry;
  matcher.add(
    stepAt(actual, actual.length),
    entryKind(missing),
    missing,
    undefined,
    `the run stopped before recorded entry ${actual.length} (${missing.type})`,
  );
}
