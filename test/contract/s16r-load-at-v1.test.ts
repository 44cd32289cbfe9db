// SPEC §14: "in-doubt calls follow §8", and §8: a call that started but has no result is in
// doubt. `Session.loadAt` (how `agent-harness/restate` loads a session to run it) checked the
// stored journal version but replayed the entries as the current version: resuming a version 1
// session cut while its tools ran (no write-ahead `tool_started`) took its owed non-idempotent
// call for one that never started and ran it again, where `Session.load` answers it interrupted.
import { describe, expect, it } from 'vitest';
import { Config, openStore, Session } from '../../src/index.js';
import { resumeWithPayAndLook, storeVersion1, V1_CUT } from '../support/v1-journal.js';

const config = new Config({});

describe('Session.loadAt of a version 1 session cut while its tools ran', () => {
  it('resumed, the non-idempotent call is in doubt (interrupted, not run again), as with Session.load', async () => {
    const store = await openStore('memory:');
    await storeVersion1(store);
    const { session } = await Session.loadAt(store, 'v1', { at: V1_CUT.length, config });
    const { ran, results } = await resumeWithPayAndLook(session, config);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    await session.close();
    await store.close();
  });
});
