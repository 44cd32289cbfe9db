import type BetterSqlite3 from 'better-sqlite3';

/** The better-sqlite3 module as `import('better-sqlite3')` gives it. */
export interface SqliteDriver {
  readonly default: typeof BetterSqlite3;
}

/**
 * Opens and closes an in-memory database: better-sqlite3 loads its native addon on the first
 * open, not on import, so this is where a missing build shows.
 */
export function probeSqlite(driver: SqliteDriver): void {
  new driver.default(':memory:').close();
}
