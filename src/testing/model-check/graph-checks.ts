import { type Findings, note } from './findings.js';
import { type Edge, type GraphNode, pathTo, type StateGraph } from './state-graph.js';

/**
 * An event of the run's own progress: a model answer or a tool result. Aborts and internal
 * errors end any run, so counting them would make every state look as if it could end.
 */
function isProgress(edge: Edge): boolean {
  return edge.event.type !== 'ABORT' && edge.event.type !== 'INTERNAL_ERROR';
}

/**
 * Checks on the graph itself: every expanded, non-final state has a way out, and `done` or
 * `error` stays reachable from it, by the run's own progress (not only by an abort or a crash); every event that matters changes the state, and every stale
 * event changes nothing. States at the step bound count as reaching an end here (the bound
 * check reports them).
 */
export function checkGraph(graph: StateGraph, findings: Findings): void {
  for (const { from, label, message } of graph.thrown) {
    const name = graph.nodes.get(from)?.state.value ?? '?';
    note(findings, 'transition_throws', `'${label}' throws in '${name}': ${message}`, () => [
      ...pathTo(graph, from),
      label,
    ]);
  }
  const reachesEnd = new Set<string>();
  const predecessors = new Map<string, string[]>();
  for (const [key, node] of graph.nodes) {
    if (node.final || !node.expanded) reachesEnd.add(key);
    for (const edge of node.edges) {
      if (edge.to === key || !isProgress(edge)) continue;
      const list = predecessors.get(edge.to) ?? [];
      list.push(key);
      predecessors.set(edge.to, list);
    }
  }
  const queue = [...reachesEnd];
  for (let head = 0; head < queue.length; head++) {
    for (const before of predecessors.get(queue[head] as string) ?? []) {
      if (reachesEnd.has(before)) continue;
      reachesEnd.add(before);
      queue.push(before);
    }
  }
  for (const [key, node] of graph.nodes) {
    if (!node.expanded) continue;
    const path = () => pathTo(graph, key);
    const name = node.state.value;
    if (!node.edges.some((edge) => edge.to !== key && isProgress(edge))) {
      note(findings, 'way_out', `'${name}' has no way out but an abort or an internal error`, path);
    }
    if (!reachesEnd.has(key))
      note(findings, 'end_reachable', `neither done nor error is reachable from '${name}'`, path);
    for (const edge of node.edges) {
      const through = () => [...path(), edge.label];
      if (edge.role === 'matters' && edge.to === key) {
        note(findings, 'dropped_event', `'${edge.label}' is dropped in '${name}'`, through);
      }
      if (edge.role === 'noise' && edge.to !== key) {
        note(findings, 'stale_event', `stale '${edge.label}' changes '${name}'`, through);
      }
    }
  }
}

/** The longest path from the start, or a cycle (ignoring self-loops), found depth first. */
function longestOrCycle(graph: StateGraph): { cycle: string[] | undefined; longest: string[] } {
  const length = new Map<string, { steps: number; next: string | undefined; label: string }>();
  const onStack = new Set<string>();
  const stack: { key: string; edge: number }[] = [{ key: graph.start, edge: 0 }];
  const labels: string[] = [];
  onStack.add(graph.start);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { key: string; edge: number };
    const node = graph.nodes.get(top.key) as GraphNode;
    const edge = node.edges[top.edge];
    if (edge === undefined) {
      let best = { steps: 0, next: undefined as string | undefined, label: '' };
      for (const out of node.edges) {
        const after = length.get(out.to);
        if (out.to !== top.key && after !== undefined && after.steps + 1 > best.steps) {
          best = { steps: after.steps + 1, next: out.to, label: out.label };
        }
      }
      length.set(top.key, best);
      onStack.delete(top.key);
      stack.pop();
      labels.pop();
      continue;
    }
    top.edge++;
    if (edge.to === top.key || length.has(edge.to)) continue;
    if (onStack.has(edge.to)) {
      const from = stack.findIndex((entry) => entry.key === edge.to);
      return { cycle: [...pathTo(graph, edge.to), ...labels.slice(from), edge.label], longest: [] };
    }
    onStack.add(edge.to);
    stack.push({ key: edge.to, edge: 0 });
    labels.push(edge.label);
  }
  const longest: string[] = [];
  for (let at = length.get(graph.start); at?.next !== undefined; at = length.get(at.next)) longest.push(at.label);
  return { cycle: undefined, longest };
}

/**
 * Every run must end within `maxSteps` events. A state left unexpanded at the bound that is not
 * final is a run still going (reported with its shortest path); otherwise the graph is complete,
 * and a cycle or a path longer than the bound is reported with the path itself.
 */
export function checkBound(graph: StateGraph, maxSteps: number, findings: Findings): void {
  const problem = `no final state within ${maxSteps} steps`;
  for (const [key, node] of graph.nodes) {
    if (!node.expanded && !node.final) {
      note(findings, 'step_bound', problem, () => pathTo(graph, key));
      return;
    }
  }
  const { cycle, longest } = longestOrCycle(graph);
  if (cycle !== undefined) {
    note(findings, 'step_bound', `${problem}: the run can go round a cycle forever`, () => cycle);
  } else if (longest.length > maxSteps) {
    note(findings, 'step_bound', problem, () => longest);
  }
}
