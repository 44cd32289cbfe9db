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

/**
 * Case 7: what bubblewrap adds to a shell call, against `sandbox: 'none'` in the same run.
 * Calls alternate between the two, so load on the machine falls on both alike; the overhead is
 * the median of the paired differences. Nothing to measure where bubblewrap does not work.
 */
export async function sandboxCase(settings: BenchSettings): Promise<ResultRow[]> {
  const boxed = Sandbox.create({ mode: 'auto' });
  if (boxed.kind !== 'bwrap') {
    console.error(`case 7 skipped: ${boxed.fallbackReason}`);
    return [];
  }
  const ws = mkdtempSync(join(tmpdir(), 'agent-harness-bench-'));
  try {
    const config = new Config({ cwd: ws });
    const registryOf = (sandbox: Sandbox) => new ToolRegistry(config).register(new ShellTool(config, { sandbox }));
    const plain = registryOf(Sandbox.create({ mode: 'none' }));
    const sandboxed = registryOf(boxed);
    const calls = settings.quick ? 20 : 60;
    for (let i = 0; i < 3; i++) {
      await timedCall(plain);
      await timedCall(sandboxed);
    }
    const none: number[] = [];
    const bwrap: number[] = [];
    const added: number[] = [];
    let cpuNone = 0;
    let cpuBwrap = 0;
    for (let i = 0; i < calls; i++) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      const [a, b] =
        i % 2 === 0
          ? [await timedCall(plain), await timedCall(sandboxed)]
          : swap(await timedCall(sandboxed), await timedCall(plain));
      none.push(a.wall);
      bwrap.push(b.wall);
      added.push(b.wall - a.wall);
      cpuNone += a.cpu;
      cpuBwrap += b.cpu;
    }
    const overhead = summarise(added);
    const name = '7 shell call (true)';
    const [load] = loadavg();
    const cpuAdded = (cpuBwrap - cpuNone) / calls;
    return [
      { case: name, impl: "sandbox: 'none'", metric: 'ms/call', summary: summarise(none) },
      { case: name, impl: "sandbox: 'bwrap'", metric: 'ms/call', summary: summarise(bwrap) },
      {
        case: name,
        impl: 'bwrap − none (paired)',
        metric: 'ms added/call',
        summary: overhead,
        target: `≤ ${TARGET_MS} ms`,
        met: overhead.median <= TARGET_MS,
        note: `${calls} alternating pairs, load average ${load?.toFixed(1)} on ${cpus().length} CPUs`,
      },
      {
        case: name,
        impl: 'bwrap − none',
        metric: 'CPU ms added/call (host and children)',
        summary: summarise([cpuAdded]),
        note: 'the machine time the sandbox costs, whatever the load; 10 ms clock ticks summed over all calls',
      },
    ];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

/** A pair taken bwrap first, returned as `[none, bwrap]`. */
function swap<T>(bwrap: T, none: T): [T, T] {
  return [none, bwrap];
}
