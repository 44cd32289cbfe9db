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
    const bodies = ${JSON.stringify(entries.map((entry) => stableJson(entry)))};
    db.prepare('INSERT INTO appends (session, seq, count, bodies, at) VALUES (?, ?, ?, ?, ?)')
      .run(${JSON.stringify(session)}, ${from}, bodies.length, bodies.join('\\n'), new Date().toISOString());
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

/** Cuts entry `seq` of `session` in `file` to its first 12 characters, inside the append row holding it. */
export function corruptEntry(file: string, session: string, seq: number): void {
  const db = new Sqlite(file);
  try {
    db.pragma('busy_timeout = 5000');
    const row = db
      .prepare('SELECT id, seq, bodies FROM appends WHERE session = ? AND seq <= ? ORDER BY seq DESC LIMIT 1')
      .get(session, seq) as { id: number; seq: number; bodies: string } | undefined;
    if (row === undefined) throw new Error(`no append holds entry ${seq} of ${session}`);
    const lines = row.bodies.split('\n');
    lines[seq - row.seq] = (lines[seq - row.seq] ?? '').slice(0, 12);
    db.prepare('UPDATE appends SET bodies = ? WHERE id = ?').run(lines.join('\n'), row.id);
  } finally {
    db.close();
  }
}
