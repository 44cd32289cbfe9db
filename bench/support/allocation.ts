import { Session } from 'node:inspector/promises';

/** A node of V8's sampling heap profile (what the inspector protocol returns). */
interface SamplingNode {
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

function totalOf(node: SamplingNode): number {
  let total = node.selfSize;
  for (const child of node.children) total += totalOf(child);
  return total;
}

/**
 * Bytes allocated on the JS heap while `work` runs, garbage included, from V8's sampling heap
 * profiler (objects later collected by minor and major GCs are kept in the profile). An
 * estimate: V8 samples one allocation per ~`interval` bytes and scales each sample back up.
 */
export async function allocatedBytes(work: () => Promise<unknown>, interval = 1024): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await work();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
    return totalOf(profile.head);
  } finally {
    session.disconnect();
  }
}
