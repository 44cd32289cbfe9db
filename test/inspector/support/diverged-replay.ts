import { z } from 'zod';
import { defineTool, ToolKind } from '../../../src/index.js';
import { type ReplayRun, replayRun } from '../../../src/testing/cassettes/replay-cassette.js';
import { agentMaker, lookupScript, recordRun } from '../../cassettes/support/recording.js';

/** What the changed lookup tool answers for "cat": markup that must stay text on the page. */
export const HOSTILE_RESULT = '<img src=x onerror="globalThis.__pwned=1"><script>globalThis.__pwned=2</script>';

/**
 * Records the three-turn lookup run, then replays it with live tools and a lookup tool that now
 * answers "cat" with {@link HOSTILE_RESULT}: the replay diverges at the first call's result.
 */
export async function divergedReplay(): Promise<ReplayRun> {
  const { cassette } = await recordRun(lookupScript());
  const changed = defineTool({
    name: 'lookup',
    description: 'Looks a word up.',
    kind: ToolKind.READ,
    schema: z.object({ word: z.string() }),
    execute: ({ params }) => (params.word === 'cat' ? HOSTILE_RESULT : `definition of ${params.word}`),
  });
  return replayRun(cassette, { makeAgent: agentMaker({ tools: [changed] }), tools: 'live' });
}
