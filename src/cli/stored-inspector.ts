import { Config } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import { machineGraph } from '../diagram/machine-graph.js';
import { ranAgents } from '../diagram/ran-agents.js';
import type { ForkedSession, ForkHandler } from '../inspector/fork-route.js';
import { InspectorFeed } from '../inspector/inspector-feed.js';
import { type InspectorServer, type InspectorServerOptions, startInspector } from '../inspector/inspector-server.js';
import { agentMachine } from '../machines/agent-machine.js';
import { checkStoredJournalVersion } from '../session/journal-version.js';
import { JOURNAL_VERSION_META, Session } from '../session/session.js';
import { readSessionTree } from '../session/session-tree.js';
import type { JournalStore, StoredEntry } from '../stores/journal-store.js';
import { newSessionId } from './run-session.js';
import { openCliStore } from './store-flags.js';
import { storedBudget } from './stored-budget.js';

/** The inspector feed of stored session `id`, read from the store at `url`, and its entry count. */
export async function storedFeed(url: string, id: string): Promise<{ feed: InspectorFeed; entries: number }> {
  const store = await openCliStore(url);
  try {
    const { entries, meta } = await store.read(id);
    // The sessions of the agents it started (agentTool), shown nested under their calls.
    const tree = await readSessionTree(store, id);
    const model = meta.model === undefined ? '' : ` (${meta.model})`;
    // Replayed for its checks (entry shapes, call/result pairing) before it is shown.
    const { journal } = Session.replay(entries, new Config());
    // Priced as the run priced it: each turn at the rates of the model that answered it.
    const budget = storedBudget(meta, journal);
    const feed = InspectorFeed.fromJournal(journal, {
      title: `session ${id}${model}`,
      ...(budget === undefined ? {} : { budget }),
      childJournal: (child) => tree.journals.get(child),
      // The child agents it ran, drawn as nested machines (no registry is at hand here).
      graph: machineGraph(agentMachine, { ran: ranAgents(tree) }),
    });
    return { feed, entries: entries.length };
  } finally {
    await store.close();
  }
}

/**
 * Stores `entries` as the new session `id`, with the source's metadata (its model and rates),
 * durably. A fork of a version 1 session stays version 1 (its calls still owed stay in doubt,
 * as `Session.fork` keeps them); of any later version, it is the current version.
 */
export async function writeFork(
  store: JournalStore,
  entries: readonly StoredEntry[],
  meta: Readonly<Record<string, string>>,
  id: string,
): Promise<void> {
  const { [JOURNAL_VERSION_META]: version, ...kept } = meta;
  const journalVersion = version === undefined ? undefined : checkStoredJournalVersion(version);
  const fork = Session.replay(entries, new Config(), { store, id, meta: kept, journalVersion });
  await fork.durable();
  await fork.close();
}

/**
 * Makes a new session in the store at `url` from the first `at` entries of session `from`, with
 * its metadata (the model and its rates), read without the writer's lock (a run may go on in
 * it). Throws `invalid_argument` for an `at` past the end, naming the session and its length.
 */
export async function forkStored(url: string, from: string, at: number, id = newSessionId()): Promise<string> {
  const store = await openCliStore(url);
  try {
    const { entries, meta } = await store.read(from);
    if (at > entries.length) {
      throw new HarnessError(
        'invalid_argument',
        `at ${at} is past the end of session '${from}' (${entries.length} entries)`,
      );
    }
    await writeFork(store, entries.slice(0, at), meta, id);
    return id;
  } finally {
    await store.close();
  }
}

/**
 * The inspector pages of stored sessions, each offering "fork here": a fork is made in the store
 * and served on a page of its own (same host, a free port), which offers forking in turn. Every
 * page is closed by {@link StoredInspectors.close}.
 */
export class StoredInspectors {
  private readonly servers = new Set<InspectorServer>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly serve: InspectorServerOptions,
  ) {}

  /** Serves stored session `id` (on `port` when given, else a free one). */
  async open(id: string, port = 0): Promise<{ server: InspectorServer; entries: number }> {
    const { feed, entries } = await storedFeed(this.url, id);
    const server = await startInspector(feed, { ...this.serve, port, fork: this.forkOf(id) });
    this.servers.add(server);
    if (this.closed) await this.close();
    return { server, entries };
  }

  /** The "fork here" of session `id`'s page. */
  forkOf(id: string): ForkHandler {
    return async (at: number): Promise<ForkedSession> => {
      const forked = await forkStored(this.url, id, at);
      const { server } = await this.open(forked);
      return { id: forked, url: server.url };
    };
  }

  /** Stops every page. */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [...this.servers];
    this.servers.clear();
    await Promise.all(servers.map((server) => server.close()));
  }
}
