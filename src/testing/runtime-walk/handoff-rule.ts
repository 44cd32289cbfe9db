import type { WalkView } from './walk-types.js';

/** Whether two lists of tool names hold the same names (names never hold a NUL). */
const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/**
 * A handoff swaps tools and instructions at once: every request (but the harness's summary
 * requests, and those that withhold tools) offers exactly the tools of the agent in charge when
 * it was made (the last `handoff` entry before it, else the main agent), with that agent's
 * instructions as its system message.
 */
export function handoffSwapsTools(view: WalkView): string[] {
  const problems: string[] = [];
  view.requests.forEach((request, n) => {
    if (request.summary) return;
    let agent = 'main';
    let since = 'from the start';
    view.journal.slice(0, request.at).forEach((entry, i) => {
      if (entry.type === 'handoff') {
        agent = entry.to;
        since = `since the handoff at entry ${i}`;
      }
    });
    const expected = view.agents.get(agent);
    if (expected === undefined) return;
    const name = `request ${n + 1} (after entry ${request.at - 1})`;
    if (request.tools.length > 0 && !sameSet(request.tools, expected.tools)) {
      problems.push(
        `${name} offers [${request.tools.join(', ')}] but '${agent}' is in charge ${since}: its tools are [${expected.tools.join(', ')}]`,
      );
    }
    const system = request.messages[0];
    if (
      expected.instructions !== undefined &&
      (system?.role !== 'system' || system.content !== expected.instructions)
    ) {
      problems.push(`${name} does not carry the instructions of '${agent}', in charge ${since}`);
    }
  });
  return problems;
}
