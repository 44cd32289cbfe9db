import { parseArgs } from 'node:util';
import { errorMessage, HarnessError } from '../../core/errors.js';
import { jsonLine, printableLine } from '../../core/printable.js';
import type { JournalStore, SessionSummary } from '../../stores/journal-store.js';
import type { Output } from '../render-human.js';
import { openCliStore, STORE_HELP, storeUrl } from '../store-flags.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness sessions`. */
export const SESSIONS_HELP = `Usage: agent-harness sessions [--store URL] [--json]

Lists the sessions of a store, most recent activity first: id, status (open, done, error,
suspended), entries and last activity (UTC). A store whose file is damaged (sqlite:) is
checked session by session: a session that cannot be read back shows as damaged, the
damage is named on stderr, and the exit code is 1.

Options:
${STORE_HELP}
  --json           one JSON object per session ({id, status, entries, updatedAt}, and
                   damaged: the reason, for a session that cannot be read back)
`;

/** A session of the listing, with why it cannot be read back when it cannot. */
type Listed = SessionSummary & { readonly damaged?: string };

/**
 * What a store's own check found (nothing for stores without one), and, when it found damage,
 * each session marked with why it cannot be read back.
 */
async function checked(store: JournalStore, sessions: readonly SessionSummary[]) {
  const problems = (await store.check?.()) ?? [];
  if (problems.length === 0) return { problems, listed: sessions as readonly Listed[] };
  const listed: Listed[] = [];
  for (const session of sessions) {
    try {
      await store.read(session.id);
      listed.push(session);
    } catch (error) {
      if (!HarnessError.isInstance(error) || error.reason !== 'journal_corrupt') throw error;
      listed.push({ ...session, damaged: errorMessage(error) });
    }
  }
  return { problems, listed };
}

function table(sessions: readonly Listed[], out: Output): void {
  const rows = sessions.map((s) => [
    s.id,
    s.damaged === undefined ? s.status : 'damaged',
    String(s.entries),
    s.updatedAt.replace('T', ' ').slice(0, 19),
  ]);
  const header = ['ID', 'STATUS', 'ENTRIES', 'LAST ACTIVITY (UTC)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  for (const row of [header, ...rows]) {
    out.write(
      `${printableLine(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )}\n`,
    );
  }
}

/** `agent-harness sessions`: lists a store's sessions; returns the exit code (1 for a damaged store). */
export async function sessionsCommand(
  argv: readonly string[],
  out: Output,
  _signal?: AbortSignal,
  err: Output = process.stderr,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { store: { type: 'string' }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length > 0)
    throw new UsageError(`sessions takes no arguments, got '${printableLine(positionals[0] ?? '')}'`);
  const store = await openCliStore(storeUrl(values.store));
  try {
    let all: readonly SessionSummary[];
    try {
      all = await store.list();
    } catch (error) {
      // A damaged store is not a usage mistake (main's exit 2 for journal_corrupt is for files named).
      if (!HarnessError.isInstance(error) || error.reason !== 'journal_corrupt') throw error;
      err.write(`agent-harness sessions: ${printableLine(error.message)}\n`);
      return 1;
    }
    const { problems, listed } = await checked(store, all);
    const sessions = [...listed].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    if (values.json) for (const session of sessions) out.write(`${jsonLine(session)}\n`);
    else if (sessions.length === 0) out.write(`no sessions in ${printableLine(store.location)}\n`);
    else table(sessions, out);
    if (problems.length === 0) return 0;
    const damaged = sessions.filter((s) => s.damaged !== undefined);
    const which =
      damaged.length === 0 ? 'every session still reads back' : `${damaged.length} session(s) cannot be read`;
    err.write(`${printableLine(`${store.location} is damaged (${problems.slice(0, 3).join('; ')}): ${which}`)}\n`);
    for (const session of damaged) err.write(`${printableLine(session.damaged ?? '')}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
