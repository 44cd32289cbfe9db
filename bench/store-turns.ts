import { Agent, type JournalStore, openStore, Session, type StoreOptions } from '../src/index.js';
import { runAgent, sharedSetup } from './harness-contender.js';

/** One store whose per-turn cost is measured (`undefined` url: a session with no store). */
export interface TurnCase {
  readonly label: string;
  readonly url: string | undefined;
  readonly options?: StoreOptions;
  /** Opens the store instead of `openStore(url, options)` (e.g. another build of a store, for an A/B run). */
  readonly open?: () => Promise<JournalStore>;
}

/** Per-turn CPU of each case (medians of interleaved samples) and the per-round ratio to the reference case. */
export interface TurnRow {
  readonly label: string;
  /** CPU µs per model request, median over the samples. */
  readonly cpuPerTurn: number;
  readonly min: number;
  readonly max: number;
  /** Median over the rounds of (this case / the reference case) measured in the same round. */
  readonly ratio: number;
  /** Wall ms of `Session.load` of one finished run, median. */
  readonly loadMs: number | undefined;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * The per-turn cost of a run whose session appends to each store (SPEC §8's durable points: a
 * tool's start before it runs, a turn before the next request, each event after its entries),
 * on the harness workload of `bench/workload.ts` with T tool turns. Samples of the cases are
 * interleaved round by round, so that the machine's drift hits them alike, and each case is
 * compared with the reference case of its own round.
 */
export async function measureStoreTurns(
  cases: readonly TurnCase[],
  reference: string,
  { toolTurns = 10, runsPerSample = 40, rounds = 9 } = {},
): Promise<TurnRow[]> {
  const shared = sharedSetup(toolTurns);
  const stores = new Map<string, JournalStore>();
  for (const c of cases) {
    if (c.open !== undefined) stores.set(c.label, await c.open());
    else if (c.url !== undefined) stores.set(c.label, await openStore(c.url, c.options ?? {}));
  }
  let serial = 0;
  const oneRun = async (label: string): Promise<string | undefined> => {
    const store = stores.get(label);
    const id = `bench-${process.pid}-${serial++}`;
    const session = new Session(shared.config, store === undefined ? {} : { store, id });
    const { turns } = await runAgent(
      new Agent(shared.config, { client: shared.client, tools: shared.registry, session }),
    );
    if (turns !== toolTurns + 1) throw new Error(`${label}: ${turns} turns`);
    await session.close();
    return store === undefined ? undefined : id;
  };
  const samples = new Map<string, number[]>(cases.map((c) => [c.label, []]));
  const ratios = new Map<string, number[]>(cases.map((c) => [c.label, []]));
  const lastIds = new Map<string, string>();
  try {
    for (const c of cases) for (let i = 0; i < runsPerSample; i++) await oneRun(c.label); // warm-up
    for (let round = 0; round < rounds; round++) {
      const thisRound = new Map<string, number>();
      for (const c of cases) {
        const before = process.cpuUsage();
        for (let i = 0; i < runsPerSample; i++) {
          const id = await oneRun(c.label);
          if (id !== undefined) lastIds.set(c.label, id);
        }
        const used = process.cpuUsage(before);
        const perTurn = (used.user + used.system) / (runsPerSample * (toolTurns + 1));
        samples.get(c.label)?.push(perTurn);
        thisRound.set(c.label, perTurn);
      }
      const base = thisRound.get(reference) ?? Number.NaN;
      for (const [label, perTurn] of thisRound) ratios.get(label)?.push(perTurn / base);
    }
    const rows: TurnRow[] = [];
    for (const c of cases) {
      const values = samples.get(c.label) ?? [];
      const store = stores.get(c.label);
      const id = lastIds.get(c.label);
      let loadMs: number | undefined;
      if (store !== undefined && id !== undefined) {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          const loaded = await Session.load(store, id, { config: shared.config });
          times.push(performance.now() - t);
          await loaded.close();
        }
        loadMs = median(times);
      }
      rows.push({
        label: c.label,
        cpuPerTurn: median(values),
        min: Math.min(...values),
        max: Math.max(...values),
        ratio: median(ratios.get(c.label) ?? []),
        loadMs,
      });
    }
    return rows;
  } finally {
    for (const store of stores.values()) await store.close();
  }
}
