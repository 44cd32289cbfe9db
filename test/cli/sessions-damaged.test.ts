import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { damagePageHolding, storeOfThreeSessions } from '../stores/support/sqlite-damage.js';
import { tempWorkspace } from '../support/workspace.js';
import { captured } from './support/cli-harness.js';

async function sessions(...args: string[]) {
  const out = captured();
  const err = captured();
  const code = await main(['sessions', ...args], out, err);
  return { code, out: out.text(), err: err.text() };
}

describe('agent-harness sessions on a damaged sqlite: store', () => {
  it('shows the session that cannot be read as damaged, names the damage and exits 1', async () => {
    const file = join(tempWorkspace(), 'sessions.db');
    await storeOfThreeSessions(file);
    damagePageHolding(file, 'b-entry-7 ');
    const listed = await sessions('--store', `sqlite:${file}`);
    expect(listed.code).toBe(1);
    expect(listed.out).toMatch(/^b\s+damaged\s+30\s/m);
    expect(listed.out).toMatch(/^a\s+open\s+30\s/m);
    expect(listed.err).toMatch(
      new RegExp(`^sqlite:${file} is damaged \\(.+\\): 1 session\\(s\\) cannot be read$`, 'm'),
    );
    expect(listed.err).toContain(`session 'b' in sqlite:${file}: the database file is damaged (SQLITE_CORRUPT`);

    const json = await sessions('--store', `sqlite:${file}`, '--json');
    expect(json.code).toBe(1);
    const lines = json.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; damaged?: string });
    expect(lines.find((s) => s.id === 'b')?.damaged).toContain('the database file is damaged');
    expect(lines.find((s) => s.id === 'a')).not.toHaveProperty('damaged');
  });

  it('names the store when its session table is damaged (exit 1)', async () => {
    const file = join(tempWorkspace(), 'sessions.db');
    await storeOfThreeSessions(file);
    damagePageHolding(file, '{"model":"m"}');
    const listed = await sessions('--store', `sqlite:${file}`);
    expect(listed).toMatchObject({ code: 1, out: '' });
    expect(listed.err).toMatch(
      new RegExp(`^agent-harness sessions: sqlite:${file}: the database file is damaged \\(SQLITE_CORRUPT`),
    );
  });
});
