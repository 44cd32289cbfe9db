import { parseArgs } from 'node:util';
import { jsonLine, printableLine } from '../../core/printable.js';
import { redactPassword } from '../../core/redact-url.js';
import { shellWord } from '../approval-prompt.js';
import { joinNegativeValues } from '../numeric-flags.js';
import type { Output } from '../render-human.js';
import { hasSession, newSessionId } from '../run-session.js';
import { openCliStore, STORE_HELP, sessionIdArg, storeUrl } from '../store-flags.js';
import { writeFork } from '../stored-inspector.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness fork`. */
export const FORK_HELP = `Usage: agent-harness fork ID --at N [--id NEW] [--store URL] [--json]

Makes a new session from the first N entries of the stored session ID (time travel: continue
from any earlier point with another answer); ID itself is untouched. 'agent-harness inspect ID'
numbers each step with the N that keeps up to it. Continue the fork with 'agent-harness resume NEW' or
'agent-harness run --session NEW "<message>"'.

Options:
  --at N           how many entries the fork keeps: 0 to the session's length
  --id NEW         the fork's id (default: a new random one)
${STORE_HELP}
  --json           print {"session", "from", "at"} as JSON
`;

function entryCount(text: string | undefined): number {
  if (text === undefined) throw new UsageError('fork needs --at N, the number of entries to keep');
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--at must be a whole number of entries (0 or more), got '${printableLine(text)}'`);
  }
  return Number(text);
}

/** `agent-harness fork ID --at N`: returns the exit code. */
export async function forkCommand(argv: readonly string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(argv, ['at']),
    options: {
      at: { type: 'string' },
      id: { type: 'string' },
      store: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const [source, ...extra] = positionals;
  if (source === undefined || extra.length > 0) throw new UsageError('give exactly one session id to fork');
  const from = sessionIdArg(source, 'fork ID');
  const at = entryCount(values.at);
  const id = values.id === undefined ? newSessionId() : sessionIdArg(values.id, '--id');
  const url = storeUrl(values.store);
  const store = await openCliStore(url);
  try {
    // Read without the writer's lock: a session may be forked while a run goes on in it.
    const { entries, meta } = await store.read(from);
    if (at > entries.length) {
      throw new UsageError(`--at ${at} is past the end of session '${from}' (${entries.length} entries)`);
    }
    if (await hasSession(store, id)) throw new UsageError(`--id: session '${id}' already exists in ${store.location}`);
    // The fork keeps the session's model and rates, so `inspect NEW` prices it as the source.
    await writeFork(store, entries.slice(0, at), meta, id);
    if (values.json) out.write(`${jsonLine({ session: id, from, at })}\n`);
    else {
      out.write(`forked ${printableLine(from)} at entry ${at} into ${printableLine(id)}\n`);
      // Without --store, a bare `resume` finds the same store (the default or $AGENT_HARNESS_STORE).
      const where = values.store === undefined ? '' : ` --store ${printableLine(shellWord(redactPassword(url)))}`;
      out.write(
        `continue it: agent-harness resume ${printableLine(id)}${where}   or   agent-harness run --session ${printableLine(id)}${where} "<message>"\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}
