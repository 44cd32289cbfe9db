import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import Sqlite from 'better-sqlite3';
import { stableJson } from '../../../src/core/stable-json.js';
import type { StoredEntry } from '../../../src/stores/index.js';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * A process that opens `file`, begins a transaction appending `entries` at `from` to `session`,
 * and is killed (SIGKILL) before it commits: the crash an uncommitted append leaves behind.
 */
export function crashMidTransaction(
  file: string,
  session: string,
  from: number,
  entries: readonly StoredEntry[],
): void {
  const script = `
    const db = new (require(${JSON.stringify(betterSqlite)}))(${JSON.stringify(file)});
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    const insert = db.prepare('INSERT INTO entries (session, seq, body) VALUES (?, ?, ?)');
    const bodies = ${JSON.stringify(entries.map((entry) => stableJson(entry)))};
    bodies.forEach((body, i) => insert.run(${JSON.stringify(session)}, ${from} + i, body));
    db.prepare('UPDATE sessions SET entries = entries + ? WHERE id = ?').run(bodies.length, ${JSON.stringify(session)});
    process.kill(process.pid, 'SIGKILL');
  `;
  try {
    execFileSync(process.execPath, ['-e', script], { stdio: 'pipe' });
  } catch (error) {
    if ((error as { signal?: unknown }).signal !== 'SIGKILL') throw error;
    return;
  }
  throw new Error('the crashing process was not killed');
}

/** Runs `sql` on its own connection to `file`. */
export function execSql(file: string, sql: string, ...params: unknown[]): void {
  const db = new Sqlite(file);
  try {
    db.pragma('busy_timeout = 5000');
    if (params.length > 0) db.prepare(sql).run(...params);
    else db.exec(sql);
  } finally {
    db.close();
  }
}
