import { parseArgs } from 'node:util';
import { jsonLine, printableLine } from '../../core/printable.js';
import type { Output } from '../render-human.js';
import { openCliStore, STORE_HELP, storeUrl } from '../store-flags.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness sessions`. */
export const SESSIONS_HELP = `Usage: agent-harness sessions [--store URL] [--json]

Lists the sessions of a store, most recent activity first: id, status (open, done, error,
suspended), entries and last activity (UTC).

Options:
${STORE_HELP}
  --json           one JSON object per session ({id, status, entries, updatedAt})
`;

/** `agent-harness sessions`: lists a store's sessions; returns the exit code. */
export async function sessionsCommand(argv: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { store: { type: 'string' }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length > 0)
    throw new UsageError(`sessions takes no arguments, got '${printableLine(positionals[0] ?? '')}'`);
  const store = await openCliStore(storeUrl(values.store));
  try {
    const sessions = [...(await store.list())].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    if (values.json) {
      for (const session of sessions) out.write(`${jsonLine(session)}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      out.write(`no sessions in ${printableLine(store.location)}\n`);
      return 0;
    }
    const rows = sessions.map((s) => [s.id, s.status, String(s.entries), s.updatedAt.replace('T', ' ').slice(0, 19)]);
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
    return 0;
  } finally {
    await store.close();
  }
}
