// SPEC §8: a call that started but has no result is in doubt, and §4: old journal versions stay
// readable. A version 1 session (no write-ahead `tool_started`) cut while its tools ran owes
// calls that may have run. `agent-harness fork` (and the inspector's "fork here") stored the fork
// as the current version: loaded again, its owed non-idempotent call was taken for one that
// never started and ran again (a second payment). Session.fork keeps version 1; so must they.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { forkStored } from '../../src/cli/stored-inspector.js';
import { Config, openStore, Session } from '../../src/index.js';
import { captured } from '../cli/support/cli-harness.js';
import { resumeWithPayAndLook, storeVersion1, V1_CUT } from '../support/v1-journal.js';
import { tempWorkspace } from '../support/workspace.js';

const config = new Config({});

/** A store holding the version 1 session `v1`. */
async function v1Store(): Promise<string> {
  const url = `sqlite:${join(tempWorkspace(), 'sessions.db')}`;
  const store = await openStore(url);
  await storeVersion1(store, 'v1', V1_CUT, { model: 'm' });
  await store.close();
  return url;
}

/** Loads stored session `id` and resumes it: which calls ran, and the results recorded. */
async function resumeStored(url: string, id: string) {
  const store = await openStore(url);
  const meta = (await store.read(id)).meta;
  const session = await Session.load(store, id, { config });
  const { ran, results } = await resumeWithPayAndLook(session, config);
  await session.close();
  await store.close();
  return { meta, ran, results };
}

describe('a stored fork of a version 1 session cut while its tools ran', () => {
  it('agent-harness fork keeps it version 1: resumed, the non-idempotent call is in doubt', async () => {
    const url = await v1Store();
    const err = captured();
    expect(
      await main(['fork', 'v1', '--at', String(V1_CUT.length), '--id', 'f', '--store', url], captured(), err),
    ).toBe(0);
    expect(err.text()).toBe('');
    const { meta, ran, results } = await resumeStored(url, 'f');
    expect(meta).toMatchObject({ journalVersion: '1', model: 'm' });
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });

  it("the inspector's fork here (forkStored) does the same", async () => {
    const url = await v1Store();
    await forkStored(url, 'v1', V1_CUT.length, 'g');
    const { meta, ran, results } = await resumeStored(url, 'g');
    expect(meta).toMatchObject({ journalVersion: '1' });
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });
});
