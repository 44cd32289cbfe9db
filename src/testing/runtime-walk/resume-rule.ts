import { specIdempotent } from './scripted-tools.js';
import type { WalkView } from './walk-types.js';

/**
 * Resume never re-runs: after a crash, no call whose result the journal had recorded runs again,
 * nor a call that was in doubt (started, no result) unless its tool is idempotent. Judged on
 * what the scripted tools actually ran after the crash, not on what the journal says ran.
 */
export function resumeNeverReruns(view: WalkView): string[] {
  const at = view.resumedAt;
  if (at === undefined) return [];
  const answered = new Map<string, number>();
  const started = new Map<string, number>();
  view.journal.slice(0, at).forEach((entry, i) => {
    if (entry.type === 'tool_result') answered.set(entry.callId, i);
    if (entry.type === 'tool_started' && !started.has(entry.callId)) started.set(entry.callId, i);
  });
  const problems: string[] = [];
  for (const run of view.executions) {
    if (run.phase !== 'start' || run.owner !== 'main') continue;
    const result = answered.get(run.callId);
    const start = started.get(run.callId);
    const spec = view.tools.get(run.name);
    if (result !== undefined) {
      problems.push(
        `${run.callId} (${run.name}) ran again after the crash at entry ${at}: its result was recorded at entry ${result}`,
      );
    } else if (start !== undefined && spec !== undefined && !specIdempotent(spec)) {
      problems.push(
        `${run.callId} (${run.name}, not idempotent) ran again after the crash at entry ${at}: it was in doubt (started at entry ${start}, no result)`,
      );
    }
  }
  return problems;
}
