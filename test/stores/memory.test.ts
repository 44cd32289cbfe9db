import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/stores/index.js';
import { describeStoreConformance } from './conformance.js';
import { entriesAt } from './support/entries.js';

describeStoreConformance('memory:', async () => {
  const url = `memory:test-${randomUUID()}`;
  return { open: () => openStore(url), dispose: async () => {} };
});

describe('memory: stores', () => {
  it('are private to each openStore("memory:") and shared by name for memory:<name>', async () => {
    const privateOne = await openStore('memory:');
    const privateTwo = await openStore('memory:');
    const writer = await privateOne.openWriter('s');
    await writer.append(entriesAt(0, 2));
    expect(await privateTwo.list()).toEqual([]);
    const name = `shared-${randomUUID()}`;
    const sharedOne = await openStore(`memory:${name}`);
    const sharedTwo = await openStore(`memory:${name}`);
    await (await sharedOne.openWriter('s')).append(entriesAt(0, 3));
    expect((await sharedTwo.read('s')).entries).toEqual(entriesAt(0, 3));
    expect(sharedTwo.location).toBe(`memory:${name}`);
  });

  it('stamps updatedAt with the injected clock', async () => {
    let now = Date.parse('2030-01-02T03:04:05.000Z');
    const store = await openStore('memory:', { now: () => new Date(now) });
    const writer = await store.openWriter('clocked');
    expect((await store.list())[0]?.updatedAt).toBe('2030-01-02T03:04:05.000Z');
    now += 60_000;
    await writer.append(entriesAt(0, 1));
    expect((await store.list())[0]?.updatedAt).toBe('2030-01-02T03:05:05.000Z');
  });
});
