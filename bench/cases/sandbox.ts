import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Config } from '../../src/config/config.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Sandbox, ShellTool } from '../../src/tools/workspace/index.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

/** The most a shell call may cost for running in bubblewrap (issue 33). */
const TARGET_MS = 30;

/** `getconf CLK_TCK` on Linux. */
const CLOCK_TICKS = 100;

/** Milliseconds of CPU this process and its waited-for children (bwrap and all below it) used so far. */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime, stime, cutime, cstime: fields 14-17 of stat, 11-14 after the command name.
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** Wall and CPU milliseconds of one `shell` call of `true` (argv, no /bin/sh) through the registry. */
async function timedCall(registry: ToolRegistry): Promise<{ wall: number; cpu: number }> {
  const cpu = cpuMs();
  const start = performance.now();
  const result = await registry.invoke('shell', { command: ['true'] });
  const wall = performance.now() - start;
  if (result.output !== 'exit code 0\n(no output)')
    throw new Error(`shell call failed: ${result.error ?? result.output}`);
  return { wall, cpu: cpuMs() - cpu };
}

/** The allow-list of case 7's third variant: the proxy runs, the command reaches no host. */
const HOSTS = ['localhost'];

/** One variant of case 7: its label and the registry its calls go through. */
interface Variant {
  readonly label: string;
  readonly registry: ToolRegistry;
  readonly wall: number[];
  cpu: number;
}

/**
 * Case 7: what bubblewrap adds to a shell call, against `sandbox: 'none'` in the same run, and
 * what an allow-list of hosts adds on top (its proxy, socat and the wait for it to listen).
 * Calls rotate among the variants, each round in another order, so load on the machine falls on
 * all alike; an overhead is the median of the paired differences within rounds. Nothing to
 * measure where bubblewrap does not work; no allow-list rows without socat.
 */
export async function sandboxCase(settings: BenchSettings): Promise<ResultRow[]> {
  const boxed = Sandbox.create({ mode: 'auto' });
  if (boxed.kind !== 'bwrap') {
    console.error(`case 7 skipped: ${boxed.fallbackReason}`);
    return [];
  }
  let hosts: Sandbox | undefined;
  try {
    hosts = Sandbox.create({ mode: 'bwrap', allowedHosts: HOSTS });
  } catch (error) {
    console.error(`case 7 without the allow-list rows: ${(error as Error).message}`);
  }
  const ws = mkdtempSync(join(tmpdir(), 'agent-harness-bench-'));
  try {
    const config = new Config({ cwd: ws });
    const variant = (label: string, sandbox: Sandbox): Variant => ({
      label,
      registry: new ToolRegistry(config).register(new ShellTool(config, { sandbox })),
      wall: [],
      cpu: 0,
    });
    const none = variant("sandbox: 'none'", Sandbox.create({ mode: 'none' }));
    const bwrap = variant("sandbox: 'bwrap'", boxed);
    const proxied =
      hosts === undefined ? undefined : variant(`sandbox: 'bwrap', allowedHosts ${JSON.stringify(HOSTS)}`, hosts);
    const variants = [none, bwrap, ...(proxied === undefined ? [] : [proxied])];
    const calls = settings.quick ? 20 : 60;
    for (let i = 0; i < 3; i++) for (const v of variants) await timedCall(v.registry);
    for (let i = 0; i < calls; i++) {
      // Rotate which goes first, so none always runs on a warmer cache.
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(i + k) % variants.length] as Variant;
        const { wall, cpu } = await timedCall(v.registry);
        v.wall.push(wall);
        v.cpu += cpu;
      }
    }
    const name = '7 shell call (true)';
    const [load] = loadavg();
    const note = `${calls} rounds of ${variants.length} rotating calls, load average ${load?.toFixed(1)} on ${cpus().length} CPUs`;
    const paired = (a: Variant, b: Variant) => summarise(b.wall.map((ms, i) => ms - (a.wall[i] ?? 0)));
    const cpuAdded = (a: Variant, b: Variant) => summarise([(b.cpu - a.cpu) / calls]);
    const cpuNote = 'the machine time it costs, whatever the load; 10 ms clock ticks summed over all calls';
    const overhead = paired(none, bwrap);
    const rows: ResultRow[] = [
      ...variants.map((v) => ({ case: name, impl: v.label, metric: 'ms/call', summary: summarise(v.wall) })),
      {
        case: name,
        impl: 'bwrap − none (paired)',
        metric: 'ms added/call',
        summary: overhead,
        target: `≤ ${TARGET_MS} ms`,
        met: overhead.median <= TARGET_MS,
        note,
      },
      {
        case: name,
        impl: 'bwrap − none',
        metric: 'CPU ms added/call (host and children)',
        summary: cpuAdded(none, bwrap),
        note: cpuNote,
      },
    ];
    if (proxied !== undefined) {
      rows.push(
        {
          case: name,
          impl: 'allowedHosts − bwrap (paired)',
          metric: 'ms added/call',
          summary: paired(bwrap, proxied),
          note,
        },
        {
          case: name,
          impl: 'allowedHosts − bwrap',
          metric: 'CPU ms added/call (host and children)',
          summary: cpuAdded(bwrap, proxied),
          note: cpuNote,
        },
      );
    }
    return rows;
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
