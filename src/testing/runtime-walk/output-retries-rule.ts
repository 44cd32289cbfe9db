import { DEFAULT_OUTPUT_RETRIES } from '../../machines/output-rules.js';
import { runSpans } from './walk-journal.js';
import type { WalkView } from './walk-types.js';

/**
 * Output retries at their boundary, per run: at most `outputRetries` failing answers are sent
 * back (a harness note right after an answer without calls), whatever turns come between them;
 * and a run stops with `output_invalid` only once all of them are used.
 */
export function outputRetriesBoundary(view: WalkView): string[] {
  const limit = view.scenario.outputRetries ?? DEFAULT_OUTPUT_RETRIES;
  const problems: string[] = [];
  for (const { start, end } of runSpans(view)) {
    let sentBack = 0;
    for (let i = start; i < end; i++) {
      const entry = view.journal[i];
      const previous = view.journal[i - 1];
      const rejected = previous?.type === 'assistant_message' && (previous.toolCalls?.length ?? 0) === 0;
      if (entry?.type === 'user_message' && entry.author === 'harness' && rejected) {
        sentBack++;
        if (sentBack > limit)
          problems.push(
            `entry ${i} sends a failing answer back for the ${sentBack}th time, over outputRetries ${limit}`,
          );
      }
      if (entry?.type === 'agent_error' && entry.reason === 'output_invalid' && sentBack !== limit)
        problems.push(`entry ${i} stops with output_invalid after ${sentBack} of ${limit} retries`);
    }
  }
  return problems;
}
