import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Config } from '../../src/config/config.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Sandbox, ShellTool } from '../../src/tools/workspace/index.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

/** The most a shell call may cost for running in bubblewrap (issue 33). */
const TARGET_MS = 30;

/** Wall milliseconds of one `shell` call of `true` (argv, no /bin/sh) through the registry. */
async function timedCall(registry: ToolRegistry): Promise<number> {
  const start = performance.now();
  const result = await registry.invoke('shell', { command: ['true'] });
  const ms = performance.now() - start;
  if (result.output !== 'exit code 0\n(no output)')
    throw new Error(`shell call failed: ${result.error ?? result.output}`);
  return ms;
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
    for (let i = 0; i < calls; i++) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      const [a, b] =
        i % 2 === 0
          ? [await timedCall(plain), await timedCall(sandboxed)]
          : swap(await timedCall(sandboxed), await timedCall(plain));
      none.push(a);
      bwrap.push(b);
      added.push(b - a);
    }
    const overhead = summarise(added);
    const name = '7 shell call (true)';
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
        note: `${calls} alternating pairs`,
      },
    ];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

/** `[later, earlier]` taken in the other order, returned as `[none, bwrap]`. */
function swap(bwrap: number, none: number): [number, number] {
  return [none, bwrap];
}
