import { readFileSync } from 'node:fs';
import { Agent } from '../agent/agent.js';
import { printableLine } from '../core/printable.js';
import type { McpSource } from '../mcp/mcp-source.js';
import { journalMeta } from '../session/journal-file.js';
import type { JournalStore } from '../stores/journal-store.js';
import { MemoryStore } from '../stores/memory-store.js';
import type { MakeAgent } from '../testing/cassettes/replay-cassette.js';
import { cliAgentParts } from './cli-agent-parts.js';
import type { Output } from './render-human.js';
import { parseRunOptions } from './run-options.js';
import { withSessionSettings } from './session-settings.js';
import { UsageError } from './usage-error.js';

/** A recorded run whose agent `replay` rebuilds: a journal file, or a stored session. */
export type RecordedSession =
  | { readonly journal: string }
  | {
      readonly id: string;
      readonly store: JournalStore;
      readonly storeUrl: string;
      /** The stored session's meta, as read with its entries. */
      readonly meta: Readonly<Record<string, string>> | undefined;
    };

/**
 * The agent the CLI would run for a recorded session, around the client it is given: the
 * session's stored settings (provider, model, workspace, tool set) taken as `resume` takes them
 * ({@link withSessionSettings}), `flags` (run's `--tools`, `--cwd`) beating them with a note on
 * `err`. A session with no stored settings (a journal written by the library) is a
 * {@link UsageError}: only `--agent MODULE` can say what agent it ran.
 */
export async function sessionAgentMaker(
  recorded: RecordedSession,
  flags: readonly string[],
  err: Output,
  sources: McpSource[],
): Promise<MakeAgent> {
  const isFile = 'journal' in recorded;
  const meta = isFile ? journalMeta(readFileSync(recorded.journal, 'utf8')) : recorded.meta;
  const where = isFile ? `the journal '${printableLine(recorded.journal)}'` : `session '${recorded.id}'`;
  if (meta?.provider === undefined) {
    throw new UsageError(
      `${where} keeps no run settings (it was not recorded by agent-harness run): pass --agent MODULE, whose makeAgent(client) builds your agent`,
    );
  }
  // The journal is only read: a throwaway store stands in for the one a resumed run writes to.
  const from = isFile
    ? ['--resume', recorded.journal, '--store', 'memory:']
    : ['--session', recorded.id, '--store', recorded.storeUrl];
  const parsed = parseRunOptions([...from, ...flags]);
  const options = isFile
    ? await withSessionSettings(parsed, new MemoryStore(), note(err))
    : await withSessionSettings(parsed, recorded.store, note(err));
  const { config, registry } = await cliAgentParts(options, err, sources);
  return (client) => new Agent(config, { client, tools: registry });
}

function note(err: Output): (line: string) => void {
  return (line) => err.write(`note: ${line}\n`);
}
