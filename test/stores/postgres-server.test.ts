import { describe, expect, it } from 'vitest';
import { postgresBin } from '../support/postgres-server.js';
import { skipWithout } from '../support/required-tools.js';

describe('the test PostgreSQL server', () => {
  it('fails (never skips) with how to install it when the server binaries are missing', () => {
    expect(() => postgresBin('/nonexistent/postgresql')).toThrow(
      'PostgreSQL server binaries not found (/nonexistent/postgresql/*/bin/initdb): the postgres store tests need a real server; install it with: apt-get install -y postgresql',
    );
  });

  it.skipIf(skipWithout('postgres'))('finds the newest installed version', () => {
    expect(postgresBin()).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
  });
});
