import { Config } from '../../config/config.js';
import type { AgentEvent } from '../../core/agent-event.js';
import { errorMessage } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { stableJson } from '../../core/stable-json.js';
import { parseJournal, serializeJournal } from '../../session/journal-file.js';
import { Session } from '../../session/session.js';
import { endData, eventShape, textOrder, toolDeltaOrder, toolEvents } from './event-rules.js';
import { guardrailOrder } from './guardrail-rules.js';
import {
  budgetCheckBeforeRequest,
  endFollowsState,
  resultsFollowCalls,
  softLimitRules,
  stopReasons,
  transitionsChain,
  turnsWithinBudget,
  usagePerTurn,
} from './journal-rules.js';
import { type JournalRun, splitRuns } from './journal-runs.js';
import { LoopInvariantError, type LoopViolation, violation } from './loop-violation.js';
import { checkReasoningIntegrity, type SentRequest } from './reasoning-integrity.js';
import { reasoningIntegrity } from './reasoning-rules.js';

/** Options of {@link checkLoopInvariants}. */
export interface LoopInvariantOptions {
  /** The events `run()` yielded for the journal's last run: checks order and agreement with the journal. */
  readonly events?: readonly AgentEvent[];
  /**
   * The requests the model clients received for this journal (as {@link SentRequest}s): checks
   * that each carried its turns' reasoning unchanged, only to the provider that made it.
   */
  readonly requests?: readonly SentRequest[];
  /** The turn budget each run must keep. */
  readonly maxTurns?: number;
  /**
   * Configuration to replay with (its system prompt); a default one otherwise. Its guardrails
   * say which verdicts the journal must hold before what they check.
   */
  readonly config?: Config;
  /** Printed under the violations by {@link assertLoopInvariants} (e.g. the script that ran). */
  readonly context?: string;
}

/** Replaying the journal (also through its file format) rebuilds it byte for byte. */
function replayRule(journal: readonly JournalEntry[], config: Config): LoopViolation[] {
  try {
    const original = stableJson(journal);
    if (stableJson(Session.replay(journal, config).journal) !== original) {
      return [violation('replay', 'Session.replay does not reproduce the journal')];
    }
    if (stableJson(parseJournal(serializeJournal(journal))) !== original) {
      return [violation('replay', 'the journal does not survive its file format')];
    }
    return [];
  } catch (error) {
    return [violation('replay', `the journal cannot be replayed: ${errorMessage(error)}`)];
  }
}

function runRules(run: JournalRun, options: LoopInvariantOptions, config: Config): LoopViolation[] {
  return [
    ...guardrailOrder(run, config.guardrails),
    ...transitionsChain(run),
    ...budgetCheckBeforeRequest(run),
    ...endFollowsState(run),
    ...stopReasons(run),
    ...usagePerTurn(run),
    ...turnsWithinBudget(run, options.maxTurns),
    ...softLimitRules(run),
  ];
}

function eventRules(
  journal: readonly JournalEntry[],
  run: JournalRun | undefined,
  events: readonly AgentEvent[],
  config: Config,
): LoopViolation[] {
  if (run === undefined) return [violation('event_shape', 'events were given but the journal has no run')];
  const end = run.ended ? run.entries.at(-1) : undefined;
  const upToEnd = Session.replay(journal.slice(0, run.offset + run.entries.length), config);
  const warnings = run.entries.filter((entry) => entry.type === 'budget_warning').length;
  const warned = events.filter((event) => event.type === 'budget_warning').length;
  return [
    ...eventShape(events),
    ...textOrder(events),
    ...toolEvents(events, run),
    ...toolDeltaOrder(events),
    ...endData(events, end, { usage: upToEnd.totalUsage, turns: upToEnd.turnCount }),
    ...(warnings === warned
      ? []
      : [violation('event_shape', `${warned} budget_warning events for ${warnings} in the journal`)]),
  ];
}

/**
 * Checks the loop's invariants on a journal (and, when given, the events of its last run), and
 * returns every violation; an empty list means the run kept them all. See `docs/testing.md`.
 */
export function checkLoopInvariants(
  journal: readonly JournalEntry[],
  options: LoopInvariantOptions = {},
): LoopViolation[] {
  const config = options.config ?? new Config();
  const runs = splitRuns(journal);
  const problems = [...resultsFollowCalls(journal), ...runs.flatMap((run) => runRules(run, options, config))];
  const last = runs.at(-1);
  if (last !== undefined && !last.ended)
    problems.push(
      violation('run_shape', `the journal ends in a run without agent_end or agent_error (from entry ${last.offset})`),
    );
  problems.push(...reasoningIntegrity(journal, config.systemPrompt));
  if (options.requests !== undefined)
    for (const problem of checkReasoningIntegrity(journal, options.requests))
      problems.push(violation('reasoning_integrity', problem));
  const replay = replayRule(journal, config);
  problems.push(...replay);
  if (options.events !== undefined && replay.length === 0)
    problems.push(...eventRules(journal, last, options.events, config));
  return problems;
}

/** Like {@link checkLoopInvariants}, but throws a {@link LoopInvariantError} listing the violations. */
export function assertLoopInvariants(journal: readonly JournalEntry[], options: LoopInvariantOptions = {}): void {
  const problems = checkLoopInvariants(journal, options);
  if (problems.length > 0) throw new LoopInvariantError(problems, options.context);
}
