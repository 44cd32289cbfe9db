import { getInitialMicrosteps } from 'xstate';
import { Budget } from '../../config/budget.js';
import type { BudgetKind, StopReason } from '../../core/agent-event.js';
import { HarnessError } from '../../core/errors.js';
import { agentMachine } from '../../machines/agent-machine.js';
import type { AgentStateName } from '../../machines/agent-machine-types.js';
import type { AlphabetOptions } from './alphabet.js';
import type { MachineViolation, ModelCheckOptions, ModelCheckReport } from './model-check-types.js';
import { buildStateGraph, type StateGraph, snapshotKey, traceOf } from './state-graph.js';
import {
  INITIAL_MONITOR,
  type MonitorLimits,
  type MonitorState,
  monitorKey,
  monitorTrace,
  type TraceStep,
} from './trace-monitor.js';

const DEFAULT_ALPHABET: AlphabetOptions = {
  maxToolCalls: 2,
  usages: [{ promptTokens: 10, completionTokens: 5, totalTokens: 15 }],
  elapsedSteps: [0],
};

/** What one exploration collects while it walks. */
interface Findings {
  readonly visited: Set<AgentStateName>;
  readonly stopReasons: Set<StopReason>;
  readonly softLimits: Set<BudgetKind>;
  readonly violations: MachineViolation[];
  readonly seen: Set<string>;
}

/** Records a problem once, with the first (breadth first: shortest) path that showed it. */
function note(findings: Findings, problem: string, path: readonly string[]): void {
  if (findings.seen.has(problem)) return;
  findings.seen.add(problem);
  findings.violations.push({ problem, path });
}

function collectOutcomes(findings: Findings, budget: Budget, trace: readonly TraceStep[]): void {
  for (const step of trace) {
    if (step.action === 'recordTransition') findings.visited.add((step.params as { to: AgentStateName }).to);
    if (step.action === 'fail' && step.context.stop) findings.stopReasons.add(step.context.stop.reason);
    if (step.action === 'warnBudget') {
      const { turns, usage, elapsedMs } = step.context;
      const hit = budget.softLimit(turns, usage, elapsedMs);
      if (hit) findings.softLimits.add(hit.budget);
    }
  }
}

function checkStates(graph: StateGraph, findings: Findings, pathTo: Map<string, string[]>): void {
  const reachesEnd = new Set<string>();
  for (const [key, node] of graph) if (node.final) reachesEnd.add(key);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [key, node] of graph) {
      if (reachesEnd.has(key) || !node.edges.some((edge) => reachesEnd.has(edge.to))) continue;
      reachesEnd.add(key);
      grew = true;
    }
  }
  for (const [key, node] of graph) {
    const path = pathTo.get(key) ?? [];
    const name = (JSON.parse(key) as { value: string }).value;
    if (!node.final && !node.edges.some((edge) => edge.to !== key)) note(findings, `'${name}' has no way out`, path);
    if (!reachesEnd.has(key)) note(findings, `neither done nor error is reachable from '${name}'`, path);
    for (const edge of node.edges) {
      if (edge.role === 'matters' && edge.to === key) note(findings, `'${edge.label}' is dropped in '${name}'`, path);
      if (edge.role === 'noise' && edge.to !== key) note(findings, `stale '${edge.label}' changes '${name}'`, path);
    }
  }
}

/** Walks the product of the graph and the path monitor, breadth first (so paths are shortest). */
function walkProduct(
  graph: StateGraph,
  start: { key: string; trace: readonly TraceStep[]; pendingCalls: number },
  limits: MonitorLimits,
  findings: Findings,
) {
  const first = { ...INITIAL_MONITOR, pendingCalls: start.pendingCalls };
  const [monitor0, problems0] = monitorTrace(first, start.trace, limits);
  for (const problem of problems0) note(findings, problem, []);
  const pathTo = new Map<string, string[]>([[start.key, []]]);
  const seen = new Set<string>();
  const queue: { key: string; monitor: MonitorState; path: string[] }[] = [
    { key: start.key, monitor: monitor0, path: [] },
  ];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const productKey = `${item.key}#${monitorKey(item.monitor)}`;
    if (seen.has(productKey)) continue;
    seen.add(productKey);
    const node = graph.get(item.key);
    if (node === undefined) continue;
    if (node.final && !item.monitor.ended) note(findings, 'the run ended without finish or fail', item.path);
    for (const edge of node.edges) {
      const path = [...item.path, edge.label];
      const [monitor, problems] = monitorTrace(item.monitor, edge.trace, limits);
      for (const problem of problems) note(findings, problem, path);
      if (!pathTo.has(edge.to)) pathTo.set(edge.to, path);
      queue.push({ key: edge.to, monitor, path });
    }
  }
  return { pathTo, productStates: seen.size };
}

/**
 * Explores every reachable state of the agent machine under a finite event alphabet (model turns
 * with text or 1..k tool calls, model errors, tool results ok/error/timeout, aborts, and stale
 * events) and checks the loop's invariants on every path. Pure: no actor runs, no tool or model
 * is called. The turn budget bounds the exploration, so `budget.maxTurns` is required.
 */
export function modelCheckAgentMachine(options: ModelCheckOptions): ModelCheckReport {
  const budget = options.budget instanceof Budget ? options.budget : new Budget(options.budget);
  if (budget.maxTurns === undefined) {
    throw new HarnessError('invalid_argument', 'modelCheckAgentMachine needs budget.maxTurns to bound the search');
  }
  const machine = options.machine ?? agentMachine;
  const alphabet: AlphabetOptions = {
    maxToolCalls: options.maxToolCalls ?? DEFAULT_ALPHABET.maxToolCalls,
    usages: options.usages ?? DEFAULT_ALPHABET.usages,
    elapsedSteps: options.elapsedSteps ?? DEFAULT_ALPHABET.elapsedSteps,
  };
  const input = options.resume === undefined ? { budget } : { budget, resume: options.resume };
  const graph = buildStateGraph(machine, input, alphabet, options.limit ?? 500_000);
  const initial = getInitialMicrosteps(machine, input);
  const last = initial.at(-1)?.[0];
  if (last === undefined) throw new HarnessError('invalid_argument', 'the machine has no initial state');
  const findings: Findings = {
    visited: new Set(),
    stopReasons: new Set(),
    softLimits: new Set(),
    violations: [],
    seen: new Set(),
  };
  const startTrace = traceOf(initial);
  collectOutcomes(findings, budget, startTrace);
  for (const node of graph.values()) for (const edge of node.edges) collectOutcomes(findings, budget, edge.trace);
  const limits = { maxTurns: budget.maxTurns };
  const { pathTo, productStates } = walkProduct(
    graph,
    { key: snapshotKey(last), trace: startTrace, pendingCalls: options.resume?.calls.length ?? 0 },
    limits,
    findings,
  );
  checkStates(graph, findings, pathTo);
  for (const name of Object.keys(machine.root.states) as AgentStateName[]) {
    if (!findings.visited.has(name)) note(findings, `state '${name}' is unreachable`, []);
  }
  return {
    states: graph.size,
    transitions: [...graph.values()].reduce((sum, node) => sum + node.edges.length, 0),
    productStates,
    visited: findings.visited,
    stopReasons: findings.stopReasons,
    softLimits: findings.softLimits,
    violations: findings.violations,
  };
}
