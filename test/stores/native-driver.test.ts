import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { loadNative } from '../../src/stores/load-optional.js';
import { probeSqlite, type SqliteDriver } from '../../src/stores/sqlite/sqlite-probe.js';

const installed = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'native-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A node_modules where better-sqlite3 is installed as with `npm i --ignore-scripts`: no build/. */
function unbuiltDriver(): SqliteDriver {
  const modules = join(dir, 'node_modules');
  const packageDir = (name: string) => join(installed.resolve(`${name}/package.json`), '..');
  const sqlite = packageDir('better-sqlite3');
  mkdirSync(join(modules, 'better-sqlite3'), { recursive: true });
  cpSync(join(sqlite, 'package.json'), join(modules, 'better-sqlite3', 'package.json'));
  cpSync(join(sqlite, 'lib'), join(modules, 'better-sqlite3', 'lib'), { recursive: true });
  for (const name of ['bindings', 'file-uri-to-path']) {
    cpSync(packageDir(name), join(modules, name), { recursive: true });
  }
  return { default: createRequire(join(dir, 'consumer.js'))('better-sqlite3') } as SqliteDriver;
}

describe('loadNative', () => {
  it('says in one line to rebuild better-sqlite3 when its native addon was never built', async () => {
    const driver = unbuiltDriver();
    const error = await loadNative('better-sqlite3', 'the sqlite: store', async () => driver, probeSqlite).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(HarnessError.isInstance(error)).toBe(true);
    const { reason, message } = error as HarnessError;
    expect(reason).toBe('missing_dependency');
    expect(message).toBe(
      "the sqlite: store needs the native build of 'better-sqlite3', which is missing (were install scripts skipped?); run: npm rebuild better-sqlite3",
    );
  });

  it('returns a driver whose addon loads, and lets any other failure through', async () => {
    const driver = (await import('better-sqlite3')) as SqliteDriver;
    await expect(loadNative('better-sqlite3', 'the sqlite: store', async () => driver, probeSqlite)).resolves.toBe(
      driver,
    );
    const broken = new Error('disk I/O error');
    const failing = () => {
      throw broken;
    };
    await expect(loadNative('better-sqlite3', 'the sqlite: store', async () => driver, failing)).rejects.toBe(broken);
  });
});
