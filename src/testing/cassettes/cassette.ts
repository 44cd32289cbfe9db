import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import type { RequestedOutput } from '../../core/model-client.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';

/** The cassette format this library writes; it reads this version and older ones. */
export const CASSETTE_VERSION = 1;

/** What `format` a cassette file's header line carries. */
export const CASSETTE_FORMAT = 'agent-harness-cassette';

/** One model request as the recorded run sent it. */
export interface RecordedModelRequest {
  /** The context sent, after redaction. */
  readonly messages: readonly Message[];
  /**
   * The tools offered, with their JSON Schemas (empty when withheld). Absent in a cassette
   * derived from a journal, which does not record them: tools offered are then not compared.
   */
  readonly tools?: readonly ToolDefinition[];
  /** The structured answer asked for, when the run asked for one. */
  readonly output?: RequestedOutput;
  /**
   * The provider request body the client sent (JSON, redacted), when recorded with `wire: true`
   * through a built-in client; a replay given a `wire` client compares it.
   */
  readonly wire?: unknown;
}

/** One model answer as it was streamed. */
export interface RecordedModelAnswer {
  /**
   * The stream events, deltas included. A cassette derived from a journal has no deltas: its
   * text comes as one `text_delta`.
   */
  readonly events: readonly StreamEvent[];
  /** The message the stream threw with after its events, when it threw. */
  readonly thrown?: string;
}

/** One model turn of a cassette: the request and, unless the recording ended first, its answer. */
export interface CassetteTurn {
  /** The request. */
  readonly request: RecordedModelRequest;
  /** The answer; absent when the recording ended before the answer was complete. */
  readonly answer?: RecordedModelAnswer;
}

/** Where a cassette's turns came from. */
export type CassetteSource = 'recording' | 'journal';

/**
 * A recorded run, to re-drive the current code with (`replayCassette`): every model request and
 * answer, and the run's journal (tool calls and results, transitions, the stop reason).
 */
export interface Cassette {
  /** The cassette format version. */
  readonly version: number;
  /**
   * `recording`: made by `recordCassette` (requests as sent, tools offered, deltas);
   * `journal`: derived from a journal (requests folded from it, no tools offered, no deltas).
   */
  readonly source: CassetteSource;
  /** The model turns, in order. */
  readonly turns: readonly CassetteTurn[];
  /** The recorded run's journal. */
  readonly journal: readonly JournalEntry[];
  /**
   * Patterns (regular expression sources, flag `g`) that were redacted from the cassette as it was
   * written; a replay redacts the new run's requests with them too, so they still compare equal.
   */
  readonly redact: readonly string[];
  /** String metadata (a model name, say); not compared. */
  readonly meta?: Readonly<Record<string, string>>;
}
