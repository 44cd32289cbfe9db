import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JournalStore, openStore, type StoredEntry, type StoreOptions } from '../src/stores/index.js';
import { startedPostgres, stopPostgres } from '../test/support/postgres-server.js';
import { measureStoreTurns, type TurnRow } from './store-turns.js';
import { machineInfo } from './support/machine.js';

/**
 * `npx tsx bench/stores.ts [--seconds=1] [--replay=10000] [--postgres=<url>] [--turns-only] [--rounds=9]`:
 * the per-turn CPU of a run whose session appends to each store, beside a session with the memory
 * store (ratios from the same rounds); append throughput per store and fsync policy (batches of 8
 * entries, like one turn), and replay (read) throughput. Without --postgres it starts a throwaway
 * server when PostgreSQL is installed. Prints markdown tables.
 */

const BATCH = 8;

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** An entry the size of a typical journal entry (~250 bytes of JSON). */
function entry(seq: number): StoredEntry {
  return seq % 2 === 0
    ? { type: 'tool_result', callId: `call_${seq}`, content: `line ${seq}: ${'lorem ipsum '.repeat(15)}` }
    : { type: 'usage', usage: { promptTokens: 1200 + seq, completionTokens: 80, totalTokens: 1280 + seq } };
}

function batch(from: number, size: number): StoredEntry[] {
  return Array.from({ length: size }, (_, i) => entry(from + i));
}

interface Row {
  readonly store: string;
  readonly appendPerSecond: number;
  readonly appendBatches: number;
  readonly replayPerSecond: number;
}

async function measure(
  label: string,
  url: string,
  options: StoreOptions,
  seconds: number,
  replay: number,
): Promise<Row> {
  const store: JournalStore = await openStore(url, options);
  try {
    const writer = await store.openWriter('append');
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    let batches = 0;
    while (performance.now() < deadline) {
      await writer.append(batch(writer.length, BATCH));
      batches++;
    }
    const appendPerSecond = writer.length / ((performance.now() - started) / 1000);
    const replayed = await store.openWriter('replay');
    for (let from = 0; from < replay; from += 500) await replayed.append(batch(from, Math.min(500, replay - from)));
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      const read = await store.read('replay');
      if (read.entries.length !== replay) throw new Error(`${label}: read ${read.entries.length} of ${replay}`);
      best = Math.min(best, performance.now() - t);
    }
    return { store: label, appendPerSecond, appendBatches: batches, replayPerSecond: replay / (best / 1000) };
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const seconds = Number(arg('seconds') ?? 1);
  const replay = Number(arg('replay') ?? 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-bench-stores-'));
  let postgresDir: string | undefined;
  const rows: Row[] = [];
  let turnRows: TurnRow[] = [];
  try {
    const cases: [string, string, StoreOptions][] = [
      ['memory:', 'memory:', {}],
      ['jsonl: fsync always', `jsonl:${join(dir, 'always')}`, { fsync: 'always' }],
      ['jsonl: fsync batch', `jsonl:${join(dir, 'batch')}`, { fsync: 'batch' }],
      ['jsonl: fsync never', `jsonl:${join(dir, 'never')}`, { fsync: 'never' }],
      ['sqlite: synchronous normal', `sqlite:${join(dir, 'normal.db')}`, { synchronous: 'normal' }],
      ['sqlite: synchronous full', `sqlite:${join(dir, 'full.db')}`, { synchronous: 'full' }],
    ];
    let postgres = arg('postgres');
    if (postgres === undefined) {
      try {
        postgresDir = mkdtempSync(join(tmpdir(), 'agent-harness-bench-pg-'));
        postgres = await startedPostgres(postgresDir);
      } catch (error) {
        console.error(`postgres: not measured (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (postgres !== undefined) cases.push(['postgres', `${postgres}?schema=bench_${process.pid}`, {}]);
    console.error('measuring the per-turn cost with each store…');
    turnRows = await measureStoreTurns(
      [
        { label: 'no store', url: undefined },
        { label: 'memory:', url: 'memory:' },
        { label: 'sqlite: synchronous normal', url: `sqlite:${join(dir, 'turns.db')}` },
        {
          label: 'sqlite: synchronous full',
          url: `sqlite:${join(dir, 'turns-full.db')}`,
          options: { synchronous: 'full' },
        },
        { label: 'jsonl: fsync batch', url: `jsonl:${join(dir, 'turns')}` },
        ...(postgres === undefined ? [] : [{ label: 'postgres', url: `${postgres}?schema=turns_${process.pid}` }]),
      ],
      'memory:',
      { rounds: Number(arg('rounds') ?? 9) },
    );
    for (const [label, url, options] of process.argv.includes('--turns-only') ? [] : cases) {
      console.error(`measuring ${label}…`);
      rows.push(await measure(label, url, options, seconds, replay));
    }
  } finally {
    if (postgresDir) {
      stopPostgres(postgresDir);
      rmSync(postgresDir, { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const machine = machineInfo();
  console.log(
    `${machine.cpu}, ${machine.nproc} CPUs, Node ${machine.node}; batches of ${BATCH}, ${seconds} s per store`,
  );
  console.log('');
  console.log('Per-turn CPU, T=10 (a new session per run, appending to the store as the run goes):');
  console.log('');
  console.log('| session store | CPU µs/turn | min–max | × memory: (same rounds) | Session.load ms |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of turnRows) {
    const f = (n: number) => n.toFixed(1);
    console.log(
      `| ${row.label} | ${f(row.cpuPerTurn)} | ${f(row.min)}–${f(row.max)} | ${row.ratio.toFixed(2)} | ${row.loadMs === undefined ? '' : row.loadMs.toFixed(2)} |`,
    );
  }
  console.log('');
  console.log('| store | append entries/s | append batches/s | replay entries/s |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows) {
    const round = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(
      `| ${row.store} | ${round(row.appendPerSecond)} | ${round(row.appendPerSecond / BATCH)} | ${round(row.replayPerSecond)} |`,
    );
  }
}

await main();
