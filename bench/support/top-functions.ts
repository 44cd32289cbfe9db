import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const ROOT = `${pathToFileURL(process.cwd()).href}/`;

/** The parts of a V8 `.cpuprofile` this script reads. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function keyOf(node: CpuProfile['nodes'][number]): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '~/').replace(ROOT, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/** Time in each function including its callees, counting a function once per stack. */
function inclusiveTimes(profile: CpuProfile): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node === undefined) break;
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + delta);
    }
  });
  return totals;
}

/** Prints the functions with the most self time (INCLUSIVE=1: with callees) in a `.cpuprofile`. */
function main(): void {
  const [file, count = '30'] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: top-functions FILE.cpuprofile [N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (node === undefined) return;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  const times = process.env.INCLUSIVE ? inclusiveTimes(profile) : self;
  const top = [...times.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
  for (const [key, us] of top) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}

main();
