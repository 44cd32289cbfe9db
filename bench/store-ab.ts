import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JournalStore } from '../src/stores/index.js';
import { measureStoreTurns } from './store-turns.js';
import { machineInfo } from './support/machine.js';

/**
 * `npx tsx bench/store-ab.ts OTHER_CHECKOUT [--rounds=9] [--reverse] [--exclusive]`: the per-turn
 * CPU at T = 10 of the `sqlite:` store of another checkout of this repository (e.g. `git archive
 * <commit> | tar -x -C /tmp/old`, with a `node_modules` link) beside this checkout's, and
 * `memory:`, in one process with the cases interleaved round by round (separate runs on a shared
 * machine are not comparable). `--reverse` runs this checkout's case before the other's;
 * `--exclusive` adds this checkout's store with `pragmas: { locking_mode: 'EXCLUSIVE' }`.
 */

const other = process.argv[2];
if (other === undefined || other.startsWith('--'))
  throw new Error('usage: bench/store-ab.ts OTHER_CHECKOUT [--rounds=N] [--reverse] [--exclusive]');
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 9);
const { openStore: openOther } = (await import(pathToFileURL(join(resolve(other), 'src/stores/index.ts')).href)) as {
  openStore: (url: string) => Promise<JournalStore>;
};
const dir = mkdtempSync(join(tmpdir(), 'agent-harness-store-ab-'));
try {
  const pair = [
    { label: `sqlite: ${other}`, url: undefined, open: () => openOther(`sqlite:${join(dir, 'other.db')}`) },
    { label: 'sqlite: this checkout', url: `sqlite:${join(dir, 'this.db')}` },
  ];
  const rows = await measureStoreTurns(
    [
      { label: 'memory:', url: 'memory:' },
      ...(process.argv.includes('--reverse') ? pair.reverse() : pair),
      ...(process.argv.includes('--exclusive')
        ? [
            {
              label: 'sqlite: this checkout, locking_mode = EXCLUSIVE',
              url: `sqlite:${join(dir, 'exclusive.db')}`,
              options: { pragmas: { locking_mode: 'EXCLUSIVE' } },
            },
          ]
        : []),
    ],
    'memory:',
    { rounds },
  );
  const machine = machineInfo();
  console.log(`${machine.cpu}, ${machine.nproc} CPUs, Node ${machine.node}; ${rounds} rounds of 40 runs, T = 10`);
  console.log('');
  console.log('| session store | CPU µs/turn | min–max | × memory: (same rounds) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${row.cpuPerTurn.toFixed(1)} | ${row.min.toFixed(1)}–${row.max.toFixed(1)} | ${row.ratio.toFixed(2)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
