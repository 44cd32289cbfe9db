import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite, { type Database } from 'better-sqlite3';
import { machineInfo } from './support/machine.js';

/**
 * `npx tsx bench/sqlite-floor.ts [--rounds=15] [--commits=600]`: the floor of one durable point
 * of the `sqlite:` store, i.e. the CPU of one raw better-sqlite3 commit of 1 and of 4 small rows
 * (~250-byte entries, like a tool start and a turn), no harness around it. Each variant has its
 * own database file; the variants alternate within every round (so the machine's drift hits them
 * alike) and each is reported as the median over the rounds of CPU µs per commit
 * (`process.cpuUsage`, user + system) and of its ratio to variant `a` in the same round.
 *
 * Variants: `a` the append of schema version 1 exactly (session-row UPDATE with the lock check
 * folded in, then the inserts); `b` the inserts alone; `c` `b` on a rowid table (entries is
 * already WITHOUT ROWID: this shows what that buys); `d` `b` with `locking_mode = EXCLUSIVE`;
 * `e*` `b` with a bigger page cache, other `wal_autocheckpoint` values, `journal_size_limit`;
 * `f*` `b` with `temp_store = MEMORY`, `mmap_size`; `g` `b` with 1 KiB pages; `h` `b` with
 * `synchronous = OFF` (reference only: not durable enough); `v2a` one row per entry with an `at`
 * column, the first insert guarded by the lock and length checks, no session-row write (a design
 * tried on the way); `v2` the append of schema version 2 as shipped: one `appends` row per
 * append holding every entry, guarded the same way. Entries are ~250 bytes of JSON each.
 */

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const ROUNDS = Number(arg('rounds') ?? 15);
const COMMITS = Number(arg('commits') ?? 600);
const SIZES = [1, 4] as const;
const SESSION = 'bench-session';
const TOKEN = 'token-of-this-writer';

const BODY = JSON.stringify({
  callId: 'call_1',
  content: `line 1: ${'lorem ipsum '.repeat(15)}`,
  type: 'tool_result',
});

/** One way of making a batch of rows durable. */
interface Variant {
  readonly name: string;
  readonly what: string;
  /** Pragmas set after `journal_mode = WAL` (before it when `before` is set). */
  readonly pragmas?: readonly string[];
  readonly before?: readonly string[];
  readonly rowid?: boolean;
  readonly mode: 'v1' | 'inserts' | 'v2a' | 'v2';
}

const VARIANTS: readonly Variant[] = [
  { name: 'a', what: 'schema v1 append as today: UPDATE sessions (+ lock check) + INSERTs', mode: 'v1' },
  { name: 'b', what: 'INSERTs only (no session-row UPDATE)', mode: 'inserts' },
  { name: 'c', what: 'b on a rowid table + (session, seq) index', mode: 'inserts', rowid: true },
  { name: 'd', what: 'b + locking_mode = EXCLUSIVE', mode: 'inserts', before: ['locking_mode = EXCLUSIVE'] },
  { name: 'e1', what: 'b + cache_size = -65536 (64 MiB)', mode: 'inserts', pragmas: ['cache_size = -65536'] },
  { name: 'e2', what: 'b + wal_autocheckpoint = 10000', mode: 'inserts', pragmas: ['wal_autocheckpoint = 10000'] },
  { name: 'e3', what: 'b + wal_autocheckpoint = 100', mode: 'inserts', pragmas: ['wal_autocheckpoint = 100'] },
  { name: 'e4', what: 'b + journal_size_limit = 4 MiB', mode: 'inserts', pragmas: ['journal_size_limit = 4194304'] },
  { name: 'f1', what: 'b + temp_store = MEMORY', mode: 'inserts', pragmas: ['temp_store = MEMORY'] },
  { name: 'f2', what: 'b + mmap_size = 256 MiB', mode: 'inserts', pragmas: ['mmap_size = 268435456'] },
  { name: 'g', what: 'b with page_size = 1024', mode: 'inserts', before: ['page_size = 1024'] },
  {
    name: 'h',
    what: 'b + synchronous = OFF (reference, not durable enough)',
    mode: 'inserts',
    pragmas: ['synchronous = OFF'],
  },
  {
    name: 'v2a',
    what: 'per-entry rows with `at`, the first INSERT guarded (lock + length): an intermediate design',
    mode: 'v2a',
  },
  {
    name: 'v2',
    what: 'schema v2 as shipped: ONE row per append (rowid table, unique (session, seq)), guarded (lock + length)',
    mode: 'v2',
  },
];

/** Opens a variant's database and returns a function committing one batch of `size` rows. */
function open(dir: string, variant: Variant): { db: Database; commit: (size: number) => void } {
  const db = new Sqlite(join(dir, `${variant.name}.db`));
  for (const p of variant.before ?? []) db.pragma(p);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  for (const p of variant.pragmas ?? []) db.pragma(p);
  const at = variant.mode === 'v2a' ? ', at TEXT' : '';
  db.exec(`
    CREATE TABLE sessions (id TEXT PRIMARY KEY, meta TEXT NOT NULL, created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL, status TEXT NOT NULL, entries INTEGER NOT NULL);
    CREATE TABLE entries (session TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL${at},
      PRIMARY KEY (session, seq))${variant.rowid ? '' : ' WITHOUT ROWID'};
    CREATE TABLE appends (id INTEGER PRIMARY KEY, session TEXT NOT NULL, seq INTEGER NOT NULL,
      count INTEGER NOT NULL, bodies TEXT NOT NULL, at TEXT);
    CREATE UNIQUE INDEX appends_by_session ON appends (session, seq);
    CREATE TABLE locks (session TEXT PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL,
      start TEXT NOT NULL, token TEXT NOT NULL, taken_at TEXT NOT NULL);
  `);
  const now = new Date().toISOString();
  db.prepare("INSERT INTO sessions VALUES (?, '{}', ?, ?, 'open', 0)").run(SESSION, now, now);
  db.prepare("INSERT INTO locks VALUES (?, 1, 'host', '', ?, ?)").run(SESSION, TOKEN, now);
  let length = 0;
  const insert = db.prepare(
    `INSERT INTO entries (session, seq, body${at ? ', at' : ''}) VALUES (?, ?, ?${at ? ', ?' : ''})`,
  );
  const update = db.prepare(
    `UPDATE sessions SET entries = ?, updated_at = ?, status = ? WHERE id = ? AND entries = ?
       AND EXISTS (SELECT 1 FROM locks WHERE session = ? AND token = ?)`,
  );
  const guardedEntry = db.prepare(
    `INSERT INTO entries (session, seq, body${at ? ', at' : ''}) SELECT ?, ?, ?${at ? ', ?' : ''}
       WHERE EXISTS (SELECT 1 FROM locks WHERE session = ? AND token = ?)
         AND NOT EXISTS (SELECT 1 FROM entries WHERE session = ? AND seq >= ?)
         AND (? = 0 OR EXISTS (SELECT 1 FROM entries WHERE session = ? AND seq = ? - 1))`,
  );
  const guardedAppend = db.prepare(
    `INSERT INTO appends (session, seq, count, bodies, at) SELECT ?, ?, ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM locks WHERE session = ? AND token = ?)
         AND COALESCE((SELECT seq + count FROM appends WHERE session = ? ORDER BY seq DESC LIMIT 1), 0) = ?`,
  );
  const transaction = db.transaction((size: number) => {
    const from = length;
    const time = new Date().toISOString();
    if (variant.mode === 'v2') {
      const bodies = Array.from({ length: size }, () => BODY).join('\n');
      if (guardedAppend.run(SESSION, from, size, bodies, time, SESSION, TOKEN, SESSION, from).changes !== 1)
        throw new Error('lost the lock');
      return;
    }
    if (variant.mode === 'v2a') {
      const guard = [SESSION, TOKEN, SESSION, from, from, SESSION, from];
      if (guardedEntry.run(SESSION, from, BODY, time, ...guard).changes !== 1) throw new Error('lost the lock');
      for (let i = 1; i < size; i++) insert.run(SESSION, from + i, BODY, time);
      return;
    }
    if (variant.mode === 'v1') {
      const moved = update.run(from + size, time, 'open', SESSION, from, SESSION, TOKEN);
      if (moved.changes !== 1) throw new Error('lost the lock');
    }
    for (let i = 0; i < size; i++) insert.run(SESSION, from + i, BODY);
  });
  return {
    db,
    commit: (size) => {
      transaction.immediate(size);
      length += size;
    },
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-sqlite-floor-'));
  const opened = VARIANTS.map((variant) => ({ variant, ...open(dir, variant) }));
  const key = (name: string, size: number) => `${name}/${size}`;
  const samples = new Map<string, number[]>();
  const ratios = new Map<string, number[]>();
  try {
    for (const { commit } of opened) for (const size of SIZES) for (let i = 0; i < 200; i++) commit(size); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round so that no variant always runs first or last.
      const shift = round % opened.length;
      const order = [...opened.slice(shift), ...opened.slice(0, shift)];
      const thisRound = new Map<string, number>();
      for (const { variant, commit } of order) {
        for (const size of SIZES) {
          const before = process.cpuUsage();
          for (let i = 0; i < COMMITS; i++) commit(size);
          const used = process.cpuUsage(before);
          const perCommit = (used.user + used.system) / COMMITS;
          thisRound.set(key(variant.name, size), perCommit);
          samples.set(key(variant.name, size), [...(samples.get(key(variant.name, size)) ?? []), perCommit]);
        }
      }
      for (const [k, value] of thisRound) {
        const base = thisRound.get(key('a', Number(k.split('/')[1]))) ?? Number.NaN;
        ratios.set(k, [...(ratios.get(k) ?? []), value / base]);
      }
    }
  } finally {
    for (const { db } of opened) db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const machine = machineInfo();
  console.log(
    `${machine.cpu}, ${machine.nproc} CPUs, Node ${machine.node}; ${ROUNDS} rounds × ${COMMITS} commits per variant and size; WAL, synchronous = NORMAL unless said`,
  );
  console.log('');
  console.log('| variant | what | CPU µs/commit, 1 row | × a | CPU µs/commit, 4 rows | × a |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const { name, what } of VARIANTS) {
    const cells = SIZES.flatMap((size) => [
      median(samples.get(key(name, size)) ?? []).toFixed(1),
      median(ratios.get(key(name, size)) ?? []).toFixed(2),
    ]);
    console.log(`| ${name} | ${what} | ${cells.join(' | ')} |`);
  }
}

main();
