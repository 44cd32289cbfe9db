import { STOP_REASONS } from '../../core/agent-event.js';
import { contentText } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { machineGraph } from '../../diagram/machine-graph.js';
import { agentMachine } from '../../machines/agent-machine.js';
import { entryName, type JournalRun } from './journal-runs.js';
import { type LoopViolation, violation } from './loop-violation.js';

/** Every stop reason but `internal_error`, which is a bug in the loop. */
const KNOWN_REASONS: ReadonlySet<string> = new Set(STOP_REASONS.filter((reason) => reason !== 'internal_error'));

let allowedMoves: Set<string> | undefined;

/** `from→to` pairs the machine can record, read from its definition. */
function moves(): Set<string> {
  allowedMoves ??= new Set(
    machineGraph(agentMachine)
      .edges.filter((edge) => edge.from !== edge.to)
      .map((edge) => `${edge.from}→${edge.to}`),
  );
  return allowedMoves;
}

/**
 * Every assistant message with N tool calls is answered by exactly N tool results, one per call
 * id, before the next model request, user message or run end. Results are journaled as calls
 * settle, so their order is free (the context puts them in the model's order); a write-ahead
 * `tool_started` names an owed call that has no result yet. Checked over the whole
 * journal, since a resumed run answers calls an interrupted one recorded. A run that ends
 * `suspended` (waiting for approval) leaves its waiting calls owed to its resume.
 */
export function resultsFollowCalls(journal: readonly JournalEntry[]): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let owed = new Set<string>();
  // A run suspended while calls waited for approval leaves them owed, for its resume.
  let suspended = false;
  const fail = (message: string) => problems.push(violation('results_follow_calls', message));
  journal.forEach((entry, i) => {
    if (entry.type === 'agent_error' && entry.reason === 'suspended') {
      suspended = true;
      return;
    }
    const closes =
      entry.type === 'turn_start' ||
      entry.type === 'assistant_message' ||
      entry.type === 'agent_end' ||
      entry.type === 'agent_error' ||
      (entry.type === 'user_message' && entry.author === undefined);
    if (closes) suspended = false;
    if (closes && owed.size > 0) {
      fail(`entry ${i} (${entry.type}) arrives while ${[...owed].join(', ')} have no result`);
      owed = new Set();
    }
    if (entry.type === 'assistant_message') {
      owed = new Set((entry.toolCalls ?? []).map((call) => call.callId));
    }
    if (entry.type === 'tool_started') {
      // A second start is a resumed run re-running a call that was in doubt.
      if (!owed.has(entry.callId)) fail(`entry ${i} starts '${entry.callId}', which is owed no result`);
    }
    if (entry.type !== 'tool_result') return;
    if (owed.has(entry.callId)) owed.delete(entry.callId);
    else fail(`entry ${i} answers '${entry.callId}', which is owed no result`);
  });
  if (owed.size > 0 && !suspended) fail(`the journal ends while ${[...owed].join(', ')} have no result`);
  return problems;
}

/** Recorded transitions chain (each `from` is the previous `to`) along edges the machine has. */
export function transitionsChain(run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let at = 'awaitingModel';
  let first = true;
  run.entries.forEach((entry, i) => {
    if (entry.type !== 'transition') return;
    // A resumed run's machine starts afresh: its first recorded moves are made on `xstate.init`
    // (to executingTools, and on to awaitingApproval when its pending calls must ask).
    if (first && entry.event === 'xstate.init') at = 'awaitingModel';
    first = false;
    if (entry.from !== at)
      problems.push(
        violation('transitions', `${entryName(run, i)} leaves '${entry.from}' but the machine was in '${at}'`),
      );
    if (!moves().has(`${entry.from}→${entry.to}`))
      problems.push(
        violation('transitions', `${entryName(run, i)}: the machine has no move ${entry.from}→${entry.to}`),
      );
    at = entry.to;
  });
  return problems;
}

/** Between an observation and the next model request the run passes through `budgetCheck`. */
export function budgetCheckBeforeRequest(run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let unchecked = false;
  run.entries.forEach((entry, i) => {
    if (entry.type === 'tool_result') unchecked = true;
    if (entry.type === 'transition' && entry.to === 'budgetCheck') unchecked = false;
    if (entry.type === 'turn_start' && unchecked) {
      problems.push(
        violation('budget_check_before_request', `${entryName(run, i)} follows an observation without budgetCheck`),
      );
    }
  });
  return problems;
}

/** `agent_end` follows a move to `done` after a turn without tool calls; `agent_error` a move to `error`. */
export function endFollowsState(run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let last = '';
  let turnHadTools = false;
  run.entries.forEach((entry, i) => {
    if (entry.type === 'turn_start') turnHadTools = false;
    if (entry.type === 'assistant_message' && (entry.toolCalls?.length ?? 0) > 0) turnHadTools = true;
    if (entry.type === 'agent_end') {
      if (last !== 'done')
        problems.push(violation('done_after_text_turn', `${entryName(run, i)} without a move to done`));
      if (turnHadTools)
        problems.push(violation('done_after_text_turn', `${entryName(run, i)} ends a turn that asked for tools`));
    }
    if (entry.type === 'agent_error' && last !== 'error') {
      problems.push(violation('stop_reason', `${entryName(run, i)} without a move to error`));
    }
    if (entry.type === 'transition') last = entry.to;
  });
  return problems;
}

/** Every `agent_error` carries a known reason and a message (an `internal_error` is a bug). */
export function stopReasons(run: JournalRun): LoopViolation[] {
  return run.entries.flatMap((entry, i) => {
    if (entry.type !== 'agent_error') return [];
    if (!KNOWN_REASONS.has(entry.reason))
      return [violation('stop_reason', `${entryName(run, i)} has reason '${entry.reason}': ${entry.message}`)];
    return entry.message.trim() === '' ? [violation('stop_reason', `${entryName(run, i)} has no message`)] : [];
  });
}

/**
 * At most one usage report per model request, after its `turn_start`; an assistant message is
 * recorded only with its turn's usage, right after it (a failed stream leaves no half-written turn).
 * A summary compaction's request has no `turn_start`: its usage comes right after the move into `compacting`.
 */
export function usagePerTurn(run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let reported = true;
  run.entries.forEach((entry, i) => {
    if (entry.type === 'assistant_message' && run.entries[i - 1]?.type !== 'usage') {
      problems.push(violation('usage', `${entryName(run, i)} is not recorded right after its turn's usage`));
    }
    if (entry.type === 'turn_start') reported = false;
    // A summary compaction's own request (no turn_start) journals its usage on entering compacting.
    if (entry.type !== 'usage' || isMoveTo(run.entries[i - 1], 'compacting')) return;
    if (reported) problems.push(violation('usage', `${entryName(run, i)} is not the first usage after a turn_start`));
    reported = true;
  });
  return problems;
}

function isMoveTo(entry: JournalEntry | undefined, state: string): boolean {
  return entry?.type === 'transition' && entry.to === state;
}

/** A run makes at most `maxTurns` model requests. */
export function turnsWithinBudget(run: JournalRun, maxTurns: number | undefined): LoopViolation[] {
  if (maxTurns === undefined) return [];
  const turns = run.entries.filter((entry) => entry.type === 'turn_start').length;
  return turns > maxTurns
    ? [violation('turn_budget', `the run at entry ${run.offset} made ${turns} requests, over maxTurns ${maxTurns}`)]
    : [];
}

/** A structured answer that failed its schema, sent back: an assistant message without tool calls. */
function isRejectedAnswer(entry: JournalEntry | undefined): boolean {
  return entry?.type === 'assistant_message' && (entry.toolCalls?.length ?? 0) === 0;
}

/**
 * One soft-limit warning at most, then a harness note, and afterwards tools only answer with
 * errors. The only other harness note is the one that sends a failing structured answer back.
 */
export function softLimitRules(run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let warned = false;
  run.entries.forEach((entry, i) => {
    const previous = run.entries[i - 1];
    if (entry.type === 'budget_warning') {
      if (warned) problems.push(violation('soft_limit', `${entryName(run, i)} is a second warning in one run`));
      warned = true;
    }
    if (
      entry.type === 'user_message' &&
      entry.author === 'harness' &&
      previous?.type !== 'budget_warning' &&
      !isRejectedAnswer(previous)
    ) {
      problems.push(
        violation('soft_limit', `${entryName(run, i)}: a harness message without a budget warning before it`),
      );
    }
    if (entry.type === 'tool_result' && warned && !contentText(entry.content).startsWith('Error: ')) {
      problems.push(violation('soft_limit', `${entryName(run, i)}: a tool ran after tools were withheld`));
    }
  });
  return problems;
}
