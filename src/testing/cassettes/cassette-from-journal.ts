import { dropForeignReasoning } from '../../agent/reasoning-filter.js';
import { summaryRequest } from '../../context/summarise-turns.js';
import type { CompactionEntry, JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import { StreamEvent } from '../../core/stream-event.js';
import type { TokenUsage } from '../../core/usage.js';
import { applyEntry, initialState } from '../../session/session-state.js';
import { CASSETTE_VERSION, type Cassette, type CassetteTurn, type RecordedModelAnswer } from './cassette.js';

/** Options of {@link cassetteFromJournal}. */
export interface JournalCassetteOptions {
  /** The system prompt the run was configured with (it is not journaled); none by default. */
  readonly systemPrompt?: string;
  /** String metadata to keep with the cassette. */
  readonly meta?: Readonly<Record<string, string>>;
}

/**
 * The answer of one turn, rebuilt from the entries between its `turn_start` and the next: a
 * fallback chain's switches first, then the message of the model that answered (named on the
 * turn's `usage` entry), or the model's failure.
 */
function answerOf(entries: readonly JournalEntry[]): RecordedModelAnswer | undefined {
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  const switches: StreamEvent[] = [];
  for (const [index, entry] of entries.entries()) {
    if (entry.type === 'model_switch') {
      const { type: _, ...modelSwitch } = entry;
      switches.push(StreamEvent.modelSwitch(modelSwitch));
    }
    // A guardrail's own requests (an LLM judge of the input) are journaled just before its verdict.
    const judged = entries[index + 1]?.type === 'guardrail';
    if (entry.type === 'usage' && usage === undefined && !judged) {
      usage = entry.usage;
      model = entry.model;
    }
    if (entry.type === 'assistant_message' || entry.type === 'agent_end') {
      const text = entry.type === 'agent_end' ? entry.response : entry.content;
      const calls = entry.type === 'assistant_message' ? (entry.toolCalls ?? []) : [];
      const complete = StreamEvent.messageComplete(usage, calls.length > 0 ? 'tool_calls' : 'stop');
      const events: StreamEvent[] = [
        ...switches,
        ...(entry.reasoning ?? []).map((part) => StreamEvent.reasoningComplete(part)),
        ...(text === '' ? [] : [StreamEvent.textDelta(text)]),
        ...calls.map((call) => StreamEvent.toolCallComplete(call)),
        model === undefined ? complete : { ...complete, model },
      ];
      return { events };
    }
    if (entry.type === 'agent_error' && entry.reason === 'model_error') {
      return { events: [...switches, StreamEvent.error(entry.message)] };
    }
    if (entry.type === 'guardrail' && entry.stage === 'input' && entry.outcome !== 'pass') {
      // The input tripped beside the request: its answer was dropped, and the journal has none.
      // Any answer goes: a new run that trips again drops it too (one that does not, diverges).
      return { events: [...switches, StreamEvent.messageComplete()] };
    }
  }
  return undefined;
}

/** Whether an entry ends a turn before its request was sent (`mcp_error`: a tool source's failed refresh). */
function sentNoRequest(entry: JournalEntry): boolean {
  return entry.type === 'agent_error' && entry.reason === 'mcp_error';
}

/** A request the journal shows: a model turn (its `turn_start`) or a summary (its `compaction`). */
interface JournaledRequest {
  /** Where its entries begin (for a summary, its switches and usage before the compaction). */
  readonly index: number;
  readonly messages: readonly Message[];
  /** A summary's answer, known from its compaction entry. */
  readonly answer?: RecordedModelAnswer;
}

/** Where a summary's entries begin: its switches and usage, journaled just before its compaction. */
function summaryStart(journal: readonly JournalEntry[], at: number): number {
  let start = at;
  if (journal[start - 1]?.type === 'usage') start--;
  while (journal[start - 1]?.type === 'model_switch') start--;
  return start;
}

/**
 * The request and answer of a summarising compaction: the harness's summary request, rebuilt
 * from the context before it, and the summary it got (the compaction's message without its
 * `[summary of N earlier messages]` heading), with its switches and usage.
 */
function summaryOf(
  journal: readonly JournalEntry[],
  at: number,
  entry: CompactionEntry,
  before: readonly Message[],
): JournaledRequest | undefined {
  const content = entry.messages[0]?.content;
  const heading = `[summary of ${entry.to - entry.from} earlier messages]\n`;
  if (typeof content !== 'string' || !content.startsWith(heading)) return undefined;
  const index = summaryStart(journal, at);
  const priced = journal[at - 1];
  const usage = priced?.type === 'usage' ? priced : undefined;
  const switches = journal
    .slice(index, at)
    .flatMap(({ type, ...rest }) =>
      type === 'model_switch' ? [StreamEvent.modelSwitch(rest as Parameters<typeof StreamEvent.modelSwitch>[0])] : [],
    );
  const complete = StreamEvent.messageComplete(usage?.usage, 'stop');
  const events = [
    ...switches,
    StreamEvent.textDelta(content.slice(heading.length)),
    usage?.model === undefined ? complete : { ...complete, model: usage.model },
  ];
  return { index, messages: summaryRequest(before, { from: entry.from, to: entry.to }), answer: { events } };
}

/**
 * A cassette derived from a journal (SPEC §17: any stored session is a cassette): each
 * `turn_start` is a request whose messages are the session's context folded up to it, answered
 * by the turn's journaled message (without the reasoning parts its note says it left out); each summarising `compaction` is the harness's summary
 * request, answered by its summary. A journal does not hold the tools offered, the stream's
 * deltas (the text is served as one delta) nor the structured output asked for, so those are
 * not compared; record with `recordCassette` to have them.
 */
export function cassetteFromJournal(journal: readonly JournalEntry[], options: JournalCassetteOptions = {}): Cassette {
  const state = initialState(options.systemPrompt);
  const requests: JournaledRequest[] = [];
  journal.forEach((entry, index) => {
    const before = entry.type === 'compaction' && entry.strategy === 'summarise' ? state.messages.slice() : undefined;
    applyEntry(state, entry, options.systemPrompt);
    if (entry.type === 'turn_start') {
      const messages = state.messages.slice();
      // The reasoning the request left out (another provider's), as its note says.
      const dropped = entry.droppedReasoning?.[0];
      if (dropped !== undefined) dropForeignReasoning(messages, dropped.client);
      requests.push({ index, messages });
    }
    if (entry.type === 'compaction' && before !== undefined) {
      const summary = summaryOf(journal, index, entry, before);
      if (summary !== undefined) requests.push(summary);
    }
  });
  const turns: CassetteTurn[] = requests.flatMap(({ index, messages, answer: known }, i): CassetteTurn[] => {
    const entries = journal.slice(index + 1, requests[i + 1]?.index ?? journal.length);
    const answer = known ?? answerOf(entries);
    // A tool source that failed to refresh ended the run after the turn's start: no request was sent.
    if (answer === undefined && entries.some(sentNoRequest)) return [];
    return [{ request: { messages }, ...(answer === undefined ? {} : { answer }) }];
  });
  return {
    version: CASSETTE_VERSION,
    source: 'journal',
    turns,
    journal: journal.slice(),
    redact: [],
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}
