import type { JournalEntry } from '../../core/journal-entry.js';
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
  for (const entry of entries) {
    if (entry.type === 'model_switch') {
      const { type: _, ...modelSwitch } = entry;
      switches.push(StreamEvent.modelSwitch(modelSwitch));
    }
    if (entry.type === 'usage' && usage === undefined) {
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
  }
  return undefined;
}

/**
 * A cassette derived from a journal (SPEC §17: any stored session is a cassette): each
 * `turn_start` is a request whose messages are the session's context folded up to it, answered
 * by the turn's journaled message. A journal does not hold the tools offered, the stream's
 * deltas (the text is served as one delta) nor the requests of a compaction summary, so those
 * are not compared or served; record with `recordCassette` to have them.
 */
export function cassetteFromJournal(journal: readonly JournalEntry[], options: JournalCassetteOptions = {}): Cassette {
  const state = initialState(options.systemPrompt);
  const starts: { index: number; messages: readonly Message[] }[] = [];
  journal.forEach((entry, index) => {
    applyEntry(state, entry, options.systemPrompt);
    if (entry.type === 'turn_start') starts.push({ index, messages: state.messages.slice() });
  });
  const turns: CassetteTurn[] = starts.map(({ index, messages }, i) => {
    const answer = answerOf(journal.slice(index + 1, starts[i + 1]?.index ?? journal.length));
    return { request: { messages }, ...(answer === undefined ? {} : { answer }) };
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
