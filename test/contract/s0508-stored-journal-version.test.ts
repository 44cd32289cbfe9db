// SPEC §4: "A saved journal carries a schema version; old versions stay readable, unknown ones are
// refused with a clear error." A stored session's journal version (its `journalVersion` meta) that
// is not a version number was reported as `journal version null` (or `0` when empty): the error
// did not name the value stored, so nobody could tell what wrote it.
import { describe, expect, it } from 'vitest';
import { Config, openStore, Session } from '../../src/index.js';

const config = new Config({});

async function storedWithVersion(version: string) {
  const store = await openStore('memory:');
  const writer = await store.openWriter('future', { meta: { journalVersion: version } });
  await writer.append([{ type: 'user_message', content: 'hi' }]);
  await writer.close();
  return store;
}

describe('s0508 §4 a stored journal version that is not a version number', () => {
  for (const [version, named] of [
    ['v7-beta', '"v7-beta"'],
    ['', '""'],
    ['7', 'version 7'],
  ] as const) {
    it(`refuses ${JSON.stringify(version)} with unsupported_journal_version naming the value stored`, async () => {
      const store = await storedWithVersion(version);
      const loading = Session.load(store, 'future', { config });
      await expect(loading).rejects.toMatchObject({ reason: 'unsupported_journal_version' });
      const error = await loading.then(
        () => new Error('loaded'),
        (caught: unknown) => caught as Error,
      );
      expect(error.message).toContain(named);
      // The lock was given back.
      await (await store.openWriter('future')).close();
      await store.close();
    });
  }

  it('still reads every readable version written as the library writes it', async () => {
    for (const version of ['1', '6']) {
      const store = await storedWithVersion(version);
      const session = await Session.load(store, 'future', { config });
      expect(session.journal).toEqual([{ type: 'user_message', content: 'hi' }]);
      await session.close();
      await store.close();
    }
  });
});
