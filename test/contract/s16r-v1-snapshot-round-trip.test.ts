// SPEC §8: a call that started but has no result is in doubt; §4: old journal versions stay
// readable. A session read from a version 1 journal (no write-ahead `tool_started`) cut while its
// tools ran owes calls that may have run. Its snapshot (`toJSON`) said the current version, so
// `Session.fromJSON(JSON.parse(JSON.stringify(session)))` took the owed non-idempotent call for
// one that never started and ran it again (a second payment).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Config, Session } from '../../src/index.js';
import { JOURNAL_VERSION, parseJournal } from '../../src/journal.js';
import { resumeWithPayAndLook } from '../support/v1-journal.js';

const config = new Config({});
const V1_FILE = fileURLToPath(new URL('../fixtures/journal-v1-cut.jsonl', import.meta.url));

const resumed = (session: Session) => resumeWithPayAndLook(session, config);

/** The session through a JSON round trip of its snapshot, as a program saving it to disk does. */
const roundTrip = (session: Session): Session => Session.fromJSON(JSON.parse(JSON.stringify(session)), config);

describe('the snapshot of a session read from a version 1 journal cut while its tools ran', () => {
  it('says version 1: restored, the non-idempotent call is in doubt (interrupted, not run again)', async () => {
    const session = roundTrip(Session.replay(parseJournal(readFileSync(V1_FILE, 'utf8')), config));
    expect(session.toJSON().version).toBe(1);
    const { ran, results } = await resumed(session);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });

  it('a current journal of the same entries still snapshots as the current version and runs the call', async () => {
    const text = readFileSync(V1_FILE, 'utf8').replace('"version":1', `"version":${JOURNAL_VERSION}`);
    const session = roundTrip(Session.replay(parseJournal(text), config));
    expect(session.toJSON().version).toBe(JOURNAL_VERSION);
    const { ran, results } = await resumed(session);
    expect(ran.sort()).toEqual(['l1', 'p1']);
    expect(results.p1).toBe('pay done');
  });
});
