import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { redactPassword as redactUrl } from '../../src/core/redact-url.js';
import { checkSessionId, openStore } from '../../src/stores/index.js';
import { loadOptional } from '../../src/stores/load-optional.js';
import { currentOwner, isOwnerAlive } from '../../src/stores/process-liveness.js';

async function failureOf(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

describe('openStore', () => {
  it('refuses an unknown scheme with invalid_argument naming the URL, credentials hidden, and the supported forms', async () => {
    const error = await failureOf(openStore('mongodb://admin:hunter2@db.example/app'));
    expect(error.reason).toBe('invalid_argument');
    expect(error.message).toContain("'mongodb://admin:***@db.example/app'");
    expect(error.message).not.toContain('hunter2');
    for (const form of ['memory:', 'jsonl:<folder>', 'sqlite:<file>', 'postgres://'])
      expect(error.message).toContain(form);
  });

  it('refuses a file store without a path', async () => {
    for (const url of ['jsonl:', 'sqlite:']) expect((await failureOf(openStore(url))).reason).toBe('invalid_argument');
  });

  it('opens memory: stores without touching the disk', async () => {
    const store = await openStore('memory:');
    expect(store.location).toBe('memory:');
  });
});

describe('redactUrl', () => {
  it.each([
    ['postgres://me:pw@host:5432/db', 'postgres://me:***@host:5432/db'],
    ['postgresql://me:p%40ss@host/db?schema=x', 'postgresql://me:***@host/db?schema=x'],
    ['postgres://host/db?user=me&password=pw&x=1', 'postgres://host/db?user=me&password=***&x=1'],
    ['postgres://me@host/db', 'postgres://me@host/db'],
    ['postgres://me:p@ss:w@rd@host/db', 'postgres://me:***@host/db'],
    ['sqlite:/var/lib/a:b@c.db', 'sqlite:/var/lib/a:b@c.db'],
  ])('%s → %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});

describe('checkSessionId', () => {
  it('accepts 1-128 characters of [A-Za-z0-9._-] not starting with a dot', () => {
    for (const id of ['a', '0', '-x', '_', 'a.b-c_D9', 'x'.repeat(128)]) expect(checkSessionId(id)).toBe(id);
  });

  it('refuses anything else with invalid_argument naming it', () => {
    for (const id of ['', '.', '.a', 'x'.repeat(129), 'a/b', 'a\\b', 'a\nb', 'ü', 42, undefined]) {
      expect(() => checkSessionId(id), String(id)).toThrow(HarnessError);
    }
    expect(() => checkSessionId('a/b')).toThrow(/invalid session id "a\/b"/);
  });
});

describe('loadOptional', () => {
  it('turns a missing package into missing_dependency saying what to install', async () => {
    const missing = Object.assign(new Error("Cannot find package 'pg' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await failureOf(loadOptional('pg', 'the postgres: store', () => Promise.reject(missing)));
    expect(error.reason).toBe('missing_dependency');
    expect(error.message).toBe("the postgres: store needs the package 'pg'; run: npm i pg");
  });

  it('lets any other failure through', async () => {
    const broken = new Error('native module failed to load');
    await expect(loadOptional('pg', 'the postgres: store', () => Promise.reject(broken))).rejects.toBe(broken);
  });
});

describe('lock owners', () => {
  it('are alive when they are this process, a running process, or on another host; dead otherwise', () => {
    const me = currentOwner();
    expect(isOwnerAlive(me)).toBe(true);
    expect(isOwnerAlive({ ...me, host: 'elsewhere', pid: 999_999_999 })).toBe(true);
    expect(isOwnerAlive({ ...me, pid: 999_999_999 })).toBe(false);
    expect(isOwnerAlive({ ...me, pid: 1, start: '' })).toBe(true);
  });

  it('with this pid but another start time are a previous process (a restarted container) and dead', () => {
    const me = currentOwner();
    if (me.start === '') throw new Error('this test needs /proc (Linux)');
    expect(isOwnerAlive({ ...me, start: String(Number(me.start) + 1) })).toBe(false);
  });
});
