import type { AgentEvent } from '../../core/agent-event.js';
import { contentText } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { JournalRun } from './journal-runs.js';
import { type LoopViolation, violation } from './loop-violation.js';

function at(events: readonly AgentEvent[], i: number): string {
  return `event ${i} (${events[i]?.type ?? 'missing'})`;
}

/** The run starts with `agent_start` and ends with exactly one `agent_end`/`agent_error`, last. */
export function eventShape(events: readonly AgentEvent[]): LoopViolation[] {
  const problems: LoopViolation[] = [];
  if (events[0]?.type !== 'agent_start')
    problems.push(violation('event_shape', `the run starts with ${at(events, 0)}, not agent_start`));
  const ends = events.flatMap((event, i) => (event.type === 'agent_end' || event.type === 'agent_error' ? [i] : []));
  if (ends.length !== 1)
    problems.push(violation('event_shape', `${ends.length} agent_end/agent_error events, expected exactly 1`));
  else if (ends[0] !== events.length - 1)
    problems.push(violation('event_shape', `${at(events, ends[0] ?? 0)} is not the last event`));
  return problems;
}

/**
 * Text deltas come before the `text_complete` that sums them up; a turn's text is complete before
 * its tools are announced; the final answer is the last completed text.
 */
export function textOrder(events: readonly AgentEvent[]): LoopViolation[] {
  const problems: LoopViolation[] = [];
  let pending = '';
  let completed = '';
  events.forEach((event, i) => {
    if (event.type === 'text_delta') pending += event.data.content;
    if (event.type === 'text_complete') {
      if (event.data.content !== pending)
        problems.push(
          violation(
            'text_order',
            `${at(events, i)} says ${JSON.stringify(event.data.content)} but the deltas said ${JSON.stringify(pending)}`,
          ),
        );
      completed = event.data.content;
      pending = '';
    }
    if ((event.type === 'tool_call_start' || event.type === 'agent_end') && pending !== '') {
      problems.push(
        violation('text_order', `${at(events, i)} while text ${JSON.stringify(pending)} was never completed`),
      );
      pending = '';
    }
    if (event.type === 'tool_call_start') completed = '';
    if (event.type === 'agent_end' && event.data.response !== completed) {
      problems.push(
        violation(
          'text_order',
          `agent_end answers ${JSON.stringify(event.data.response)} but the last text was ${JSON.stringify(completed)}`,
        ),
      );
    }
  });
  return problems;
}

function toolContent(event: AgentEvent<'tool_call_complete'>): string {
  return event.data.success ? (event.data.output ?? '') : `Error: ${event.data.error ?? 'unknown error'}`;
}

/**
 * Each call is announced once before it completes, completes once, and its result reaches the
 * model verbatim as the `tool` message for that call id (tool output goes nowhere else).
 */
export function toolEvents(events: readonly AgentEvent[], run: JournalRun): LoopViolation[] {
  const problems: LoopViolation[] = [];
  const started = new Map<string, number>();
  const recorded = run.entries.flatMap((entry) =>
    // A result of parts is compared by its text (what the event's output holds), notes included.
    entry.type === 'tool_result' ? [`${entry.callId}\u0000${contentText(entry.content)}`] : [],
  );
  events.forEach((event, i) => {
    if (event.type === 'tool_call_start') started.set(event.data.callId, (started.get(event.data.callId) ?? 0) + 1);
    if (event.type !== 'tool_call_complete') return;
    const open = started.get(event.data.callId) ?? 0;
    if (open === 0)
      problems.push(violation('tool_events', `${at(events, i)} for '${event.data.callId}' without a tool_call_start`));
    else started.set(event.data.callId, open - 1);
    const index = recorded.indexOf(`${event.data.callId}\u0000${toolContent(event)}`);
    if (index < 0)
      problems.push(
        violation(
          'tool_events',
          `${at(events, i)}: the result of '${event.data.callId}' is not the tool message recorded for it`,
        ),
      );
    else recorded.splice(index, 1);
  });
  for (const [callId, open] of started) {
    if (open > 0) problems.push(violation('tool_events', `'${callId}' was announced but never completed`));
  }
  return problems;
}

/** The end event carries what the journal recorded: the answer or the stop, usage and turns. */
export function endData(
  events: readonly AgentEvent[],
  end: JournalEntry | undefined,
  totals: { usage: unknown; turns: number },
): LoopViolation[] {
  const last = events.at(-1);
  if (last === undefined || end === undefined) return [];
  if (last.type === 'agent_end') {
    const problems: LoopViolation[] = [];
    if (end.type !== 'agent_end' || end.response !== last.data.response)
      problems.push(violation('end_data', 'agent_end does not match the journal'));
    if (JSON.stringify(last.data.usage) !== JSON.stringify(totals.usage))
      problems.push(
        violation(
          'end_data',
          `agent_end usage ${JSON.stringify(last.data.usage)} is not the journal's sum ${JSON.stringify(totals.usage)}`,
        ),
      );
    if (last.data.turnCount !== totals.turns)
      problems.push(
        violation('end_data', `agent_end turnCount ${last.data.turnCount} is not the journal's ${totals.turns}`),
      );
    return problems;
  }
  if (
    last.type === 'agent_error' &&
    (end.type !== 'agent_error' || end.reason !== last.data.reason || end.message !== last.data.message)
  ) {
    return [violation('end_data', 'agent_error does not match the journal')];
  }
  return [];
}

/**
 * A call's argument deltas (`tool_call_delta`) stream before it is announced: none follows the
 * `tool_call_start` of its call id (deltas are of the turn the model is streaming).
 */
export function toolDeltaOrder(events: readonly AgentEvent[]): LoopViolation[] {
  const problems: LoopViolation[] = [];
  const announced = new Set<string>();
  events.forEach((event, i) => {
    if (event.type === 'tool_call_start') announced.add(event.data.callId);
    if (event.type === 'tool_call_delta' && announced.has(event.data.callId)) {
      problems.push(
        violation('tool_events', `${at(events, i)} for call ${event.data.callId} after its tool_call_start`),
      );
    }
  });
  return problems;
}
