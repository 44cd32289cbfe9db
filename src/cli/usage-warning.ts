import type { Budget } from '../config/budget.js';
import type { Session } from '../session/session.js';
import type { Output } from './render-human.js';

/**
 * Warns once on `err` when a model turn completes without token usage while a cost or token
 * budget is set: such a budget then counts nothing and cannot stop the run. Call the returned
 * function after each event of the run; it reads the journal entries appended since the last
 * call (a completed turn is a `usage` entry, then the assistant message or the run's end).
 */
export function usageWarning(session: Session, budget: Budget, err: Output): () => void {
  const watched =
    budget.maxCost !== undefined ? '--max-cost' : budget.maxTotalTokens !== undefined ? 'the token budget' : undefined;
  let next = session.journal.length;
  let warned = watched === undefined;
  let turn = session.turnCount;
  let reported = false;
  const warn = (): void => {
    warned = true;
    err.write(
      `warning: the server reported no token usage for turn ${turn}, so ${watched} cannot stop this run (its cost counts as 0); --max-turns and --timeout still apply\n`,
    );
  };
  return () => {
    if (warned) return;
    const entries = session.journalFrom(next);
    next += entries.length;
    for (const entry of entries) {
      if (entry.type === 'turn_start') {
        turn++;
        reported = false;
      } else if (entry.type === 'usage') {
        reported = entry.usage.totalTokens > 0 || entry.usage.promptTokens > 0 || entry.usage.completionTokens > 0;
        if (!reported) return warn();
      } else if ((entry.type === 'assistant_message' || entry.type === 'agent_end') && !reported) {
        return warn();
      }
    }
  };
}
