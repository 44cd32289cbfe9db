import type { AnyActorRef } from 'xstate';
import type { ContextSettings } from '../config/context-options.js';
import { elideOldOutputs } from '../context/elide-outputs.js';
import { summaryCompaction, summaryRegion, summaryRequest } from '../context/summarise-turns.js';
import type { Compaction } from '../core/compaction.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { ModelSwitch } from '../core/stream-event.js';
import { type TokenUsage, usageOfModel, ZERO_USAGE } from '../core/usage.js';
import type { CompactParams } from '../machines/agent-machine-types.js';
import { readModelStream } from './read-model-stream.js';
import { answer, requestOptions } from './request-model.js';
import { activeRun, depsOf, type MachineDeps, type RunHandle } from './run-handle.js';

/** What compacting found: the compaction (none when nothing was left to compact) and the usage it cost. */
interface Outcome {
  readonly compaction: Compaction | undefined;
  readonly usage: TokenUsage;
  /** The model that wrote the summary, when a fallback chain named it. */
  readonly model?: string;
  /** The switches a fallback chain made for the summary request, journaled with the compaction. */
  readonly switches?: readonly ModelSwitch[];
}

/**
 * Asks the model for a summary of the old turns: the context up to the kept turns, verbatim,
 * and the harness's request, with no tools. Its deltas are not streamed to the run's reader:
 * the summary is the harness's own request, not a turn of the agent.
 */
async function summarise(
  deps: MachineDeps,
  run: RunHandle,
  settings: ContextSettings,
  params: CompactParams,
): Promise<Outcome> {
  const { session } = deps;
  const messages = session.messages;
  const region = summaryRegion(messages, settings.keepTurns);
  if (region === undefined) return { compaction: undefined, usage: ZERO_USAGE };
  const client = settings.client ?? deps.client;
  if (client === undefined) throw new HarnessError('no_client', 'the agent has no model client to summarise with');
  const abort = run.modelAbort;
  const requested = client.chatCompletion(
    summaryRequest(messages, region),
    undefined,
    requestOptions(abort, undefined),
  );
  const events = isPromiseLike(requested) ? await requested : requested;
  const switches: ModelSwitch[] = [];
  const turn = await readModelStream(
    events,
    async () => {
      if (abort.aborted) throw new HarnessError('model_error', 'the summary request was aborted');
    },
    undefined,
    undefined,
    (modelSwitch) => switches.push(modelSwitch),
  );
  if (abort.aborted) throw new HarnessError('model_error', 'the summary request was aborted');
  if (turn.toolCalls.length > 0 || turn.text.trim() === '') {
    throw new HarnessError('model_error', 'the summary request got no text back (tools were not offered)');
  }
  const { model } = turn;
  return {
    compaction: summaryCompaction(messages, region, turn.text, params),
    // Usage a named model answered is priced at that model's rates, as a turn's is.
    usage: model === undefined ? turn.usage : usageOfModel(turn.usage, model),
    ...(model === undefined ? {} : { model }),
    ...(switches.length === 0 ? {} : { switches }),
  };
}

/** The compaction with the note that its size was scaled by a bound, when it was. */
function noted(compaction: Compaction | undefined, params: CompactParams): Compaction | undefined {
  const reported = params.reportedTokenScale;
  if (compaction === undefined || reported === undefined) return compaction;
  return { ...compaction, tokenScale: { reported, used: params.tokenScale } };
}

async function compact(deps: MachineDeps, run: RunHandle, params: CompactParams): Promise<Outcome> {
  const settings = deps.session.config.context;
  if (settings === undefined) throw new Error('compacting without Config.context');
  await deps.bus.idle(); // as before a model request: subscribers catch up first
  if (settings.strategy === 'summarise') return summarise(deps, run, settings, params);
  const goal = { ...params, targetTokens: settings.targetTokens, keepTurns: settings.keepTurns };
  return { compaction: elideOldOutputs(deps.session.messages, goal), usage: ZERO_USAGE };
}

/** The `compactContext` effect: compacts in the background and answers `COMPACTED` (or `MODEL_ERROR`). */
export function compactContext(self: AnyActorRef, system: object, params: CompactParams): void {
  const deps = depsOf(system);
  const run = activeRun(deps);
  compact(deps, run, params).then(
    ({ compaction, usage, model, switches }) => {
      // A successful summary's switches are journaled before it (a failing one journals nothing).
      for (const modelSwitch of switches ?? []) deps.session.recordModelSwitch(modelSwitch);
      answer(self, {
        type: 'COMPACTED',
        compaction: noted(compaction, params),
        usage,
        ...(model === undefined ? {} : { model }),
        elapsedMs: deps.now() - run.startedAt,
      });
    },
    (error: unknown) =>
      answer(self, { type: 'MODEL_ERROR', message: `context compaction failed: ${errorMessage(error)}` }),
  );
}
