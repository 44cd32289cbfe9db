import type { JournalEntry } from '../core/journal-entry.js';
import type { ToolCall } from '../core/messages.js';
import type { SessionTree } from '../session/session-tree.js';
import type { RanAgent } from './diagram-options.js';

/**
 * The agent tools a stored run started, as a tree by tool name (from each session's `tool_started`
 * entries that name a child session, and the calls' names): what a diagram of a stored session
 * draws under `executingTools` when no registry is at hand. The children of one tool name are
 * those of all its calls.
 */
export function ranAgents(tree: SessionTree): RanAgent[] {
  return ranBy(tree, tree.id, new Set([tree.id]));
}

function ranBy(tree: SessionTree, sessionId: string, seen: ReadonlySet<string>): RanAgent[] {
  const journal = tree.journals.get(sessionId) ?? [];
  const childrenByName = new Map<string, string[]>();
  for (const [name, childId] of childCalls(journal)) {
    const ids = childrenByName.get(name) ?? [];
    if (!seen.has(childId)) ids.push(childId);
    childrenByName.set(name, ids);
  }
  return [...childrenByName].map(([name, ids]) => ({
    name,
    children: merge(ids.map((id) => ranBy(tree, id, new Set([...seen, id])))),
  }));
}

/** (tool name, child session id) for each call of the journal that ran a child agent. */
function childCalls(journal: readonly JournalEntry[]): [string, string][] {
  const names = new Map<string, string>();
  const calls: [string, string][] = [];
  for (const entry of journal) {
    if (entry.type === 'assistant_message') {
      for (const call of entry.toolCalls ?? ([] as readonly ToolCall[])) names.set(call.callId, call.name);
    } else if (entry.type === 'tool_started' && entry.childSessionId !== undefined) {
      calls.push([names.get(entry.callId) ?? entry.callId, entry.childSessionId]);
    }
  }
  return calls;
}

/** One tree of the agents several runs of one tool started, merged by name. */
function merge(trees: readonly (readonly RanAgent[])[]): RanAgent[] {
  const byName = new Map<string, (readonly RanAgent[])[]>();
  for (const agents of trees)
    for (const agent of agents) byName.set(agent.name, [...(byName.get(agent.name) ?? []), agent.children]);
  return [...byName].map(([name, children]) => ({ name, children: merge(children) }));
}
