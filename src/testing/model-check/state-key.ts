import type { AgentContext } from '../../machines/agent-machine-types.js';

/** A reachable machine state as the explorer sees it: its name and its context. */
export interface ExploredState {
  /** The state's name. */
  readonly value: string;
  /** The machine's context in it. */
  readonly context: AgentContext;
}

function resultKind(result: AgentContext['results'][number]): string {
  if (result === undefined) return '-';
  return result.success ? 'ok' : (result.error ?? '');
}

/**
 * The key that identifies a state during exploration. It keeps every context field a guard or a
 * later transition can read, and drops the dead ones: outside `executingTools` and `awaitingApproval` the per-turn tool
 * fields (`calls`, `results`, …) are overwritten by the next model turn before anything reads
 * them, so two states that differ only there behave identically. The budget is the same in every
 * state of one exploration.
 */
export function stateKey(state: ExploredState): string {
  const {
    budget: _budget,
    calls,
    concurrencySafe,
    results,
    settled,
    nextToStart,
    running,
    reported,
    permissions,
    decisions,
    ...live
  } = state.context;
  const toolFields =
    state.value === 'executingTools' || state.value === 'awaitingApproval'
      ? {
          permissions,
          decisions: decisions.map((decision) => (decision === undefined ? '-' : decision.approved ? '+' : 'x')),
          calls: calls.length,
          concurrencySafe,
          results: results.map(resultKind),
          settled,
          nextToStart,
          running,
          reported,
        }
      : {};
  return JSON.stringify({ value: state.value, ...live, ...toolFields });
}
