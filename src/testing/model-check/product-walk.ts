import { type Findings, note } from './findings.js';
import type { ExploredStep, ModelCheckRule } from './model-check-types.js';
import type { StateGraph } from './state-graph.js';
import {
  type MonitorLimits,
  type MonitorState,
  monitorKey,
  monitorTransition,
  type TraceStep,
} from './trace-monitor.js';

/** What the walk over the product of states and monitor states needs. */
export interface ProductWalk {
  readonly graph: StateGraph;
  readonly monitor: MonitorState;
  readonly limits: MonitorLimits;
  readonly rules: readonly ModelCheckRule[];
  /** Paths longer than this are not followed (the graph check reports them). */
  readonly maxSteps: number;
}

interface Item {
  readonly key: string;
  readonly monitor: MonitorState;
  readonly depth: number;
  readonly parent: number;
  readonly label: string;
}

function pathOf(items: readonly Item[], index: number): string[] {
  const labels: string[] = [];
  for (let item = items[index]; item !== undefined && item.parent >= 0; item = items[item.parent])
    labels.push(item.label);
  return labels.reverse();
}

const productKey = (key: string, monitor: MonitorState): string => `${key}#${monitorKey(monitor)}`;

function ruleName(rule: ModelCheckRule, index: number): string {
  return rule.name === '' ? `rules[${index}]` : rule.name;
}

function runRules(
  walk: ProductWalk,
  step: ExploredStep,
  trace: readonly TraceStep[],
  monitor: MonitorState,
): [string, string][] {
  const found: [string, string][] = [];
  walk.rules.forEach((rule, i) => {
    const problem = rule(step, trace, monitor);
    if (problem !== undefined) found.push([ruleName(rule, i), problem]);
  });
  return found;
}

/**
 * Walks the product of the state graph and the path monitor, breadth first (so each violation
 * gets a shortest path), running the built-in monitor and the user's rules on every transition.
 * Returns the number of product states.
 */
export function walkProduct(walk: ProductWalk, findings: Findings): number {
  const { graph, limits } = walk;
  const startNode = graph.nodes.get(graph.start);
  if (startNode === undefined) return 0;
  const start = { event: undefined, role: 'matters', from: undefined, to: startNode.state, changed: true } as const;
  const [monitor0, problems0] = monitorTransition(walk.monitor, start, graph.startTrace, limits);
  for (const { rule, problem } of problems0) note(findings, rule, problem, () => []);
  const startStep: ExploredStep = { ...start, label: '(start)' };
  for (const [rule, problem] of runRules(walk, startStep, graph.startTrace, walk.monitor)) {
    note(findings, rule, problem, () => []);
  }
  const items: Item[] = [{ key: graph.start, monitor: monitor0, depth: 0, parent: -1, label: '' }];
  const seen = new Set<string>([productKey(graph.start, monitor0)]);
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as Item;
    const node = graph.nodes.get(item.key);
    if (node === undefined) continue;
    if (node.final && !item.monitor.ended) {
      note(findings, 'run_ends', 'the run ended without finish or fail', () => pathOf(items, index));
    }
    if (item.depth > walk.maxSteps) continue;
    for (const edge of node.edges) {
      const transition = {
        event: edge.event,
        role: edge.role,
        from: node.state.context,
        to: edge.target,
        changed: edge.to !== item.key,
      };
      const [monitor, problems] = monitorTransition(item.monitor, transition, edge.trace, limits);
      const step: ExploredStep = { ...transition, from: node.state, label: edge.label };
      const own = runRules(walk, step, edge.trace, item.monitor);
      const path = () => [...pathOf(items, index), edge.label];
      for (const { rule, problem } of problems) note(findings, rule, problem, path);
      for (const [rule, problem] of own) note(findings, rule, problem, path);
      const key = productKey(edge.to, monitor);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ key: edge.to, monitor, depth: item.depth + 1, parent: index, label: edge.label });
    }
  }
  return seen.size;
}
