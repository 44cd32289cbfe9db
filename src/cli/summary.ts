import type { AgentEvent } from '../core/agent-event.js';
import type { TokenUsage } from '../core/usage.js';

/** The closing numbers of a run. */
export interface RunSummary {
  readonly outcome: 'answer' | 'error';
  readonly stopReason: string;
  readonly turns: number;
  readonly usage: TokenUsage;
  readonly cost: number;
  readonly wallMs: number;
}

/** One line: `done: answer · 2 turns · 45 tokens (32 in / 13 out) · $0.000058 · 14 ms`. */
export function summaryLine(summary: RunSummary): string {
  const { usage } = summary;
  const outcome = summary.outcome === 'answer' ? 'final answer' : `stopped: ${summary.stopReason}`;
  return [
    `done: ${outcome}`,
    `${summary.turns} turn${summary.turns === 1 ? '' : 's'}`,
    `${usage.totalTokens} tokens (${usage.promptTokens} in / ${usage.completionTokens} out)`,
    `$${summary.cost.toFixed(6)}`,
    `${Math.round(summary.wallMs)} ms`,
  ].join(' · ');
}

/** The outcome and stop reason from a run's last event. */
export function outcomeOf(last: AgentEvent | undefined): Pick<RunSummary, 'outcome' | 'stopReason'> {
  if (last?.type === 'agent_end') return { outcome: 'answer', stopReason: 'final_answer' };
  if (last?.type === 'agent_error') return { outcome: 'error', stopReason: last.data.reason };
  return { outcome: 'error', stopReason: 'internal_error' };
}
