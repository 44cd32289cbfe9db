import type { SoftLimitHit } from '../config/budget.js';

/** Result given to a call the model makes while tools are withheld. */
export const TOOLS_WITHHELD_ERROR =
  'Tools are withheld: the run budget is nearly spent. Give your final answer without tools.';

/** The harness-authored message that asks for a concise final answer. */
export function softLimitMessage(hit: SoftLimitHit): string {
  const percent = Math.round(hit.used * 100);
  return (
    `[harness] The ${hit.budget} budget of this run is ${percent}% used. ` +
    'Tools are no longer available. Reply now with a concise final answer based on what you already know.'
  );
}
