import { contentText } from '../../core/content-parts.js';
import type { JournalEntry, ToolResultEntry } from '../../core/journal-entry.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../../core/usage.js';
import type { SessionTree } from '../../session/session-tree.js';
import { checkLoopInvariants } from './loop-invariants.js';

/** Names of the invariants {@link checkDelegationInvariants} checks over a parent and its children. */
export type DelegationRule =
  /** A child's run ended (`agent_end` / `agent_error`) before its parent's call was answered. */
  | 'child_answered'
  /** The parent's result is the child's answer, or its `agent_error` as `Error: <reason>: <message>`. */
  | 'child_result'
  /** The usage journaled with the parent's result is the child's whole usage, counted once. */
  | 'child_usage'
  /** A child's budget stop shows in the parent: as the call's error, or as the parent's own stop. */
  | 'child_budget'
  /** Each session of the tree keeps the loop invariants on its own. */
  | 'child_loop';

/** One broken delegation invariant. */
export interface DelegationViolation {
  readonly rule: DelegationRule;
  /** The session (parent) where it shows. */
  readonly session: string;
  /** What is wrong, naming the call and the child. */
  readonly message: string;
}

const BUDGET_STOPS: ReadonlySet<string> = new Set(['turn_budget', 'cost_budget', 'token_budget', 'time_budget']);

/** The call's result was made without waiting for its child (an abort, a time-out, a depth refusal). */
function answeredWithoutChild(content: string): boolean {
  return /^Error: (Tool '[^']*' (was aborted|timed out)|agent_depth: )/.test(content);
}

/** Everything a journal counts as its usage (its requests and its children's). */
function usageOf(journal: readonly JournalEntry[]): TokenUsage {
  let usage = ZERO_USAGE;
  for (const entry of journal) {
    if (entry.type === 'usage') usage = addUsage(usage, entry.usage);
    else if (entry.type === 'tool_result' && entry.usage !== undefined) usage = addUsage(usage, entry.usage);
    else if (entry.type === 'reset') usage = ZERO_USAGE;
  }
  return usage;
}

function sameUsage(a: TokenUsage | undefined, b: TokenUsage): boolean {
  return (
    a !== undefined &&
    a.promptTokens === b.promptTokens &&
    a.completionTokens === b.completionTokens &&
    a.totalTokens === b.totalTokens
  );
}

/** What a child's end entry makes of its parent's call: the answer, or `Error: <reason>: <message>`. */
function expectedContent(end: JournalEntry): string | undefined {
  if (end.type === 'agent_end') return end.response;
  if (end.type === 'agent_error') return `Error: ${end.reason}: ${end.message}`;
  return undefined;
}

/** The last result journaled for each call, by call id. */
function resultsByCall(journal: readonly JournalEntry[]): Map<string, ToolResultEntry> {
  const results = new Map<string, ToolResultEntry>();
  for (const entry of journal) if (entry.type === 'tool_result') results.set(entry.callId, entry);
  return results;
}

/** The child session of each call that ran one (its last start), by call id. */
function childrenByCall(journal: readonly JournalEntry[]): Map<string, string> {
  const children = new Map<string, string>();
  for (const entry of journal) {
    if (entry.type === 'tool_started' && entry.childSessionId !== undefined)
      children.set(entry.callId, entry.childSessionId);
  }
  return children;
}

/** The delegation rules for one parent session. */
function checkParent(id: string, journal: readonly JournalEntry[], tree: SessionTree): DelegationViolation[] {
  const problems: DelegationViolation[] = [];
  const fail = (rule: DelegationRule, message: string) => problems.push({ rule, session: id, message });
  const results = resultsByCall(journal);
  const parentEnd = journal.at(-1);
  for (const [callId, childId] of childrenByCall(journal)) {
    const child = tree.journals.get(childId);
    const result = results.get(callId);
    const end = child?.at(-1);
    const childEnded = end?.type === 'agent_end' || end?.type === 'agent_error';
    if (result === undefined) {
      // Unanswered: fine while the parent is cut off (a resume answers it) or stopped; never
      // once it answered the task as if the child's budget stop had not happened.
      if (end?.type === 'agent_error' && BUDGET_STOPS.has(end.reason) && parentEnd?.type === 'agent_end')
        fail(
          'child_budget',
          `call '${callId}': child '${childId}' stopped with ${end.reason}, but the parent answered without the call's result`,
        );
      continue;
    }
    const content = contentText(result.content);
    if (answeredWithoutChild(content)) continue;
    if (child === undefined || !childEnded || end === undefined) {
      fail(
        'child_answered',
        `call '${callId}' was answered, but its child '${childId}' ${child === undefined ? 'has no journal' : 'never ended'}`,
      );
      continue;
    }
    const expected = expectedContent(end);
    if (end.type === 'agent_error' && BUDGET_STOPS.has(end.reason) && !content.startsWith(`Error: ${end.reason}:`))
      fail(
        'child_budget',
        `call '${callId}': child '${childId}' stopped with ${end.reason}, but the parent got ${JSON.stringify(content.slice(0, 80))}`,
      );
    else if (expected !== undefined && content !== expected && !content.includes('[truncated '))
      fail(
        'child_result',
        `call '${callId}': the parent got ${JSON.stringify(content.slice(0, 80))}, child '${childId}' ended with ${JSON.stringify(expected.slice(0, 80))}`,
      );
    const usage = usageOf(child);
    if (!sameUsage(result.usage, usage))
      fail(
        'child_usage',
        `call '${callId}': the parent counted ${result.usage?.totalTokens ?? 0} tokens for child '${childId}', which used ${usage.totalTokens}`,
      );
  }
  return problems;
}

/**
 * Checks a parent and the agents it started (`agentTool`), as read with `readSessionTree`: every
 * call that ran a child is answered only once the child ended, with the child's answer or its
 * `Error: <reason>: <message>`; the child's usage is counted into the parent once, with the
 * result; a child's budget stop shows in the parent as the call's error or the parent's stop;
 * and every session keeps the loop invariants ({@link checkLoopInvariants}). Returns every
 * violation (none: an empty array).
 */
export function checkDelegationInvariants(tree: SessionTree): DelegationViolation[] {
  const problems: DelegationViolation[] = [];
  for (const [id, journal] of tree.journals) {
    problems.push(...checkParent(id, journal, tree));
    for (const loop of checkLoopInvariants(journal)) {
      problems.push({ rule: 'child_loop', session: id, message: `[${loop.rule}] ${loop.message}` });
    }
  }
  return problems;
}
