import { HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { Cassette } from './cassette.js';
import { readCassetteFile } from './cassette-file.js';
import { cassetteFromJournal } from './cassette-from-journal.js';

/** Something a session-like value holds: a journal, and maybe the configuration it ran with. */
export interface JournalHolder {
  /** Its journal. */
  readonly journal: readonly JournalEntry[];
  /** Its configuration (a `Session` has one): the system prompt of its requests. */
  readonly config?: { readonly systemPrompt?: string | undefined };
}

/**
 * What `replayCassette` replays: a {@link Cassette}, the path of a cassette or journal file, a
 * journal, or a `Session` (any stored session is a cassette: `await Session.load(store, id)`).
 */
export type CassetteInput = Cassette | string | readonly JournalEntry[] | JournalHolder;

function isCassette(input: CassetteInput): input is Cassette {
  return typeof input === 'object' && !Array.isArray(input) && 'turns' in input && 'source' in input;
}

/**
 * The cassette of `input`. A journal carries no system prompt: a journal file or array is read
 * with `systemPrompt` (the replaying agent's), a session with its own configuration's.
 */
export async function loadCassette(input: CassetteInput, systemPrompt?: string): Promise<Cassette> {
  if (typeof input === 'string') return readCassetteFile(input, systemPrompt === undefined ? {} : { systemPrompt });
  if (Array.isArray(input)) {
    return cassetteFromJournal(input as readonly JournalEntry[], systemPrompt === undefined ? {} : { systemPrompt });
  }
  if (isCassette(input as CassetteInput)) return input as Cassette;
  const holder = input as JournalHolder;
  if (typeof holder !== 'object' || holder === null || !Array.isArray(holder.journal)) {
    throw new HarnessError('invalid_argument', 'replayCassette takes a cassette, a file path, a journal or a session');
  }
  const own = holder.config?.systemPrompt;
  return cassetteFromJournal(holder.journal, own === undefined ? {} : { systemPrompt: own });
}
