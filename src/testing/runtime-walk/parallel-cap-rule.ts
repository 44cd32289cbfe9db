import type { WalkView } from './walk-types.js';

/**
 * The parallel cap: at no time do more than `maxParallelTools` of the main agent's calls run at
 * once, as the scripted tools saw them run (and as the journal's starts and results say).
 */
export function parallelCap(view: WalkView): string[] {
  const cap = view.config.maxParallelTools;
  const problems: string[] = [];
  let running = 0;
  for (const run of view.executions) {
    if (run.owner !== 'main') continue;
    running += run.phase === 'start' ? 1 : -1;
    if (running > cap)
      problems.push(`${running} calls ran at once (${run.callId} started), over maxParallelTools ${cap}`);
  }
  const inFlight = new Set<string>();
  const starts = new Set(view.runStarts);
  view.journal.forEach((entry, i) => {
    if (starts.has(i)) inFlight.clear(); // a crashed run's calls in doubt do not run on
    if (entry.type === 'tool_started') inFlight.add(entry.callId);
    if (entry.type === 'tool_result') inFlight.delete(entry.callId);
    if (inFlight.size > cap)
      problems.push(`entry ${i} starts a call while ${inFlight.size - 1} run, at maxParallelTools ${cap}`);
  });
  return problems;
}
