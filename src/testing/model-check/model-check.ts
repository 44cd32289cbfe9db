import { Budget } from '../../config/budget.js';
import { DEFAULT_MAX_INVALID_TOOL_CALLS, DEFAULT_MAX_PARALLEL_TOOLS } from '../../config/config.js';
import { HarnessError } from '../../core/errors.js';
import { agentMachine } from '../../machines/agent-machine.js';
import type { AgentStateName } from '../../machines/agent-machine-types.js';
import { gateCalls } from '../../machines/approval-gate.js';
import { DEFAULT_OUTPUT_RETRIES } from '../../machines/output-rules.js';
import { type AlphabetOptions, EXPLORED_CONTEXT_LIMIT } from './alphabet.js';
import { boundaryUsages, SMALL_USAGE } from './boundary-usages.js';
import { limitsOf } from './budget-oracle.js';
import { type Findings, newFindings, note } from './findings.js';
import { checkBound, checkGraph } from './graph-checks.js';
import type { ModelCheckOptions, ModelCheckReport } from './model-check-types.js';
import { gateMarks } from './monitor-tool-rules.js';
import { walkProduct } from './product-walk.js';
import { buildStateGraph, type StateGraph } from './state-graph.js';
import { INITIAL_MONITOR, type MonitorState, type TraceStep } from './trace-monitor.js';

const DEFAULT_MAX_TOOL_CALLS = 2;

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

/**
 * Events after which every run of a correct machine has ended: each allowed turn is one model
 * answer plus at most one result per call, a resumed run first settles its pending calls, and
 * one abort may come on top (later aborts change nothing). With `compacts`, each turn may also
 * be preceded by one compaction, and the run may end on one that finds nothing.
 */
export function stepBound(
  maxTurns: number,
  maxToolCalls: number,
  resumedCalls: number,
  asks = false,
  compacts = false,
  guarded = false,
): number {
  // A call that asks may take one decision before its result, a guarded one a verdict after it;
  // a waiting run one suspend at the end; guardrails a verdict on the input and on the answer.
  const perCall = (asks ? 2 : 1) + (guarded ? 1 : 0);
  const compactions = compacts ? maxTurns + 1 : 0;
  const verdicts = guarded ? 2 : 0;
  return resumedCalls * perCall + maxTurns * (1 + perCall * maxToolCalls) + 1 + (asks ? 1 : 0) + compactions + verdicts;
}

function startMonitor(options: ModelCheckOptions): MonitorState {
  const resume = options.resume;
  if (resume === undefined) return INITIAL_MONITOR;
  // The resumed calls go through the gate again: follow the machine's order.
  const gated = gateCalls(resume);
  const calls = gated.concurrencySafe.map((safe) => (safe ? 'S' : 'U')).join('');
  const gate = gateMarks(gated.permissions, gated.decisions);
  return { ...INITIAL_MONITOR, pendingCalls: resume.calls.length, calls, gate };
}

/** Whether the exploration can ask for approval: some explored or resumed call asks. */
function explorationAsks(options: ModelCheckOptions): boolean {
  // Policy functions may answer `ask` too.
  return (
    options.policyVerdicts === true ||
    (options.permissions ?? []).includes('ask') ||
    (options.resume?.permissions ?? []).includes('ask')
  );
}

function transitionCount(graph: StateGraph): number {
  let count = 0;
  for (const node of graph.nodes.values()) count += node.edges.length;
  return count;
}

/**
 * Explores every reachable state of the agent machine under a finite event alphabet (model turns
 * with text or 1..k tool calls, model errors, tool results ok/error/timeout, aborts, and stale
 * events) and checks the loop's invariants on every path, plus your own `rules`. Pure: no actor
 * runs, no tool or model is called. The turn budget bounds the exploration (`budget.maxTurns` is
 * required): a run still going after `maxSteps` events is reported, with its path, not searched
 * forever. See docs/testing.md.
 */
export function modelCheckAgentMachine(options: ModelCheckOptions): ModelCheckReport {
  const budget = options.budget instanceof Budget ? options.budget : new Budget(options.budget);
  if (budget.maxTurns === undefined) {
    throw new HarnessError('invalid_argument', 'modelCheckAgentMachine needs budget.maxTurns to bound the search');
  }
  const machine = options.machine ?? agentMachine;
  const alphabet: AlphabetOptions = {
    maxToolCalls: options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    usages: options.usages ?? [SMALL_USAGE, ...boundaryUsages(budget)],
    elapsedSteps: options.elapsedSteps ?? [0],
    permissions: options.permissions ?? ['allow'],
    invalidCalls: options.invalidCalls ?? false,
    structuredOutput: options.structuredOutput ?? false,
    context: options.context ?? false,
    guardrails: options.guardrails ?? false,
    ...(options.childUsage === undefined ? {} : { childUsage: options.childUsage }),
    reasoning: options.reasoning ?? false,
    policyVerdicts: options.policyVerdicts ?? false,
  };
  const asks = explorationAsks(options);
  const maxSteps =
    options.maxSteps ??
    stepBound(
      budget.maxTurns,
      alphabet.maxToolCalls,
      options.resume?.calls.length ?? 0,
      asks,
      alphabet.context,
      alphabet.guardrails,
    );
  const maxParallelTools = options.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS;
  const maxInvalidToolCalls = options.maxInvalidToolCalls ?? DEFAULT_MAX_INVALID_TOOL_CALLS;
  const outputRetries = options.outputRetries ?? DEFAULT_OUTPUT_RETRIES;
  const caps = {
    maxParallelTools,
    maxInvalidToolCalls,
    outputRetries,
    ...(alphabet.context ? { contextLimit: EXPLORED_CONTEXT_LIMIT } : {}),
  };
  const guardrails = alphabet.guardrails
    ? { guardrails: { input: true, output: true, toolResult: true, inputPending: options.resume === undefined } }
    : {};
  const input =
    options.resume === undefined
      ? { budget, ...caps, ...guardrails }
      : { budget, ...caps, ...guardrails, resume: options.resume };
  const graph = buildStateGraph(machine, input, alphabet, { maxSteps, maxStates: options.limit ?? 500_000 });
  const findings = newFindings();
  collectOutcomes(findings, budget, graph.startTrace);
  for (const node of graph.nodes.values()) for (const edge of node.edges) collectOutcomes(findings, budget, edge.trace);
  const productStates = walkProduct(
    {
      graph,
      monitor: startMonitor(options),
      limits: { budget: limitsOf(budget), ...caps },
      rules: options.rules ?? [],
      maxSteps,
    },
    findings,
  );
  checkGraph(graph, findings);
  checkBound(graph, maxSteps, findings);
  for (const name of Object.keys(machine.root.states) as AgentStateName[]) {
    // Without a call that asks, nothing can wait for approval.
    if (name === 'awaitingApproval' && !asks) continue;
    // Without a context limit, nothing is ever compacted.
    if (name === 'compacting' && !alphabet.context) continue;
    // Without output guardrails, no answer waits for a verdict.
    if (name === 'guardingOutput' && !alphabet.guardrails) continue;
    if (!findings.visited.has(name)) note(findings, 'unreachable_state', `state '${name}' is unreachable`, () => []);
  }
  return {
    states: graph.nodes.size,
    transitions: transitionCount(graph),
    productStates,
    maxSteps,
    visited: findings.visited,
    stopReasons: findings.stopReasons,
    softLimits: findings.softLimits,
    violations: findings.violations,
  };
}
