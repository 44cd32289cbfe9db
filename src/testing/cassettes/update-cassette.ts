import { StreamEventType } from '../../core/stream-event.js';
import { CASSETTE_VERSION, type Cassette, type CassetteTurn } from './cassette.js';
import { type Divergence, divergence } from './divergence.js';
import type { CassetteInput } from './load-cassette.js';
import { type ReplayOptions, replayRun } from './replay-cassette.js';

/** What {@link updateCassette} made. */
export interface CassetteUpdate {
  /** The cassette rewritten for the current code: its requests and journal, the recorded answers. */
  readonly cassette: Cassette;
  /** What changed from the recording (every divergence). */
  readonly changes: readonly Divergence[];
  /**
   * Recorded answers that no longer fit the new run: a turn the recording has no answer for, a
   * call of a tool no longer offered, a call or result not recorded. Empty when the update is whole.
   */
  readonly unfit: readonly Divergence[];
}

/** Calls in a served answer of tools the recorded request offered and the new one does not. */
function callsNotOffered(turns: readonly CassetteTurn[], recorded: readonly CassetteTurn[]): Divergence[] {
  return turns.flatMap(({ request, answer }, i) => {
    const offered = new Set((request.tools ?? []).map((tool) => tool.name));
    const wasOffered = new Set((recorded[i]?.request.tools ?? []).map((tool) => tool.name));
    return (answer?.events ?? []).flatMap((event) => {
      const call = event.type === StreamEventType.TOOL_CALL_COMPLETE ? event.toolCall : undefined;
      if (call === undefined || offered.has(call.name) || !wasOffered.has(call.name)) return [];
      const step = { turn: i + 1, entryIndex: -1, state: '' };
      return [
        divergence(
          step,
          'tool call',
          call,
          undefined,
          `the recorded answer of turn ${i + 1} calls ${call.name}, which the run no longer offers`,
        ),
      ];
    });
  });
}

/**
 * Rewrites a cassette after an intended change (`replay --update`): replays it, keeping going
 * past every divergence with the recorded answers (no model is asked), and returns a cassette
 * of the new requests and journal with the recorded answers, plus the answers that no longer fit.
 */
export async function updateCassette(
  input: CassetteInput,
  options: Omit<ReplayOptions, 'continueOnDivergence'>,
): Promise<CassetteUpdate> {
  const { cassette, client, agent, report, redactor } = await replayRun(input, {
    ...options,
    continueOnDivergence: true,
  });
  const turns: CassetteTurn[] = client.sent.map((request, i) => {
    const answer = client.served[i];
    return answer === undefined ? { request } : { request, answer };
  });
  const changes = report.divergences ?? [];
  const unfit = [
    ...changes.filter(
      (found) =>
        found.kind === 'extra request' ||
        found.kind === 'recording ended' ||
        (found.kind === 'tool call' && found.expected === undefined),
    ),
    ...callsNotOffered(turns, cassette.turns),
  ];
  return {
    cassette: {
      version: CASSETTE_VERSION,
      source: 'recording',
      turns,
      journal: agent.session.journal.map((entry) => redactor.value(entry)),
      redact: [...new Set([...cassette.redact, ...(options.redact ?? [])])],
      ...(cassette.meta === undefined ? {} : { meta: cassette.meta }),
    },
    changes,
    unfit,
  };
}
