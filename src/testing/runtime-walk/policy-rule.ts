import { ruleFor } from '../../config/permission-policy.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { callNames } from './walk-journal.js';
import type { WalkView } from './walk-types.js';

/** The problems of the executions of one journal's calls (`owner`'s) under the root's policy. */
function journalProblems(view: WalkView, journal: readonly JournalEntry[], owner: string, where: string): string[] {
  const names = callNames(journal);
  const approved = new Set<string>();
  for (const entry of journal) if (entry.type === 'approval_decision' && entry.approved) approved.add(entry.callId);
  const problems: string[] = [];
  for (const run of view.executions) {
    if (run.phase !== 'start' || run.owner !== owner || names.get(run.callId) !== run.name) continue;
    const spec = view.tools.get(run.name);
    const found = ruleFor(view.config.permissions, run.name, spec?.kind ?? 'read');
    if (found?.rule === 'deny')
      problems.push(`${where} ${run.callId} (${run.name}) ran, which the policy (${found.key}) denies`);
    if (found?.rule === 'ask' && !approved.has(run.callId))
      problems.push(
        `${where} ${run.callId} (${run.name}) ran without an approval, which the policy (${found.key}) asks for`,
      );
  }
  return problems;
}

/**
 * Nothing runs that the policy does not allow: in the session and in the sub-agent's (a child
 * may narrow its parent's policy, never widen it), no scripted tool runs a call (as the tools
 * saw it run) that the root's policy denies, nor one it asks about without a journaled approval.
 * The rule is looked up by the tool's own name and kind, whichever agent holds it (after a
 * handoff too).
 */
export function policyKept(view: WalkView): string[] {
  const sub = view.scenario.subAgent?.name;
  return [
    ...journalProblems(view, view.journal, 'main', 'the session:'),
    ...(sub === undefined
      ? []
      : [...view.children].flatMap(([id, journal]) => journalProblems(view, journal, sub, `sub-agent ${id}:`))),
  ];
}
