import type { AgentContext } from '../../machines/agent-machine-types.js';

/** A reachable machine state as the explorer sees it: its name and its context. */
export interface ExploredState {
  /** The state's name. */
  readonly value: string;
  /** The machine's context in it. */
  readonly context: AgentContext;
}

function resultKind(result: AgentContext['tools']['results'][number]): string {
  if (result === undefined) return '-';
  return result.success ? 'ok' : (result.error ?? '');
}

/**
 * The key that identifies a state during exploration. It keeps every context field a guard or a
 * later transition can read, and drops the dead ones: outside `executingTools` and `awaitingApproval` the per-turn tool
 * fields (`context.tools`) are replaced by the next model turn before anything reads them, so two
 * states that differ only there behave identically. The limits are the same in every state of one
 * exploration.
 */
export function stateKey(state: ExploredState): string {
  const { limits: _limits, tools, ...live } = state.context;
  const toolFields =
    state.value === 'executingTools' || state.value === 'awaitingApproval'
      ? {
          permissions: tools.permissions,
          decisions: tools.decisions.map((decision) => (decision === undefined ? '-' : decision.approved ? '+' : 'x')),
          answers: tools.answers.map(resultKind),
          calls: tools.calls.length,
          concurrencySafe: tools.concurrencySafe,
          results: tools.results.map(resultKind),
          settled: tools.settled,
          nextToStart: tools.nextToStart,
          running: tools.running,
          reported: tools.reported,
          // `tools.asked` is left out: only the `requestApproval` effect reads it, never a guard.
        }
      : {};
  return JSON.stringify({ value: state.value, ...live, ...toolFields });
}
