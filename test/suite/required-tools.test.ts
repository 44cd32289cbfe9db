import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTool, missingToolsLine, onCi, skipWithout, toolDecision } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';

const MISSING = {
  AGENT_HARNESS_CHROMIUM: '/nonexistent/chromium',
  AGENT_HARNESS_POSTGRES_ROOT: '/nonexistent/pg',
  AGENT_HARNESS_BWRAP: '/nonexistent/bwrap',
  AGENT_HARNESS_SOCAT: '/nonexistent/socat',
};

/** A fake Debian PostgreSQL tree with an `initdb`, and files standing in for Chromium and bwrap. */
function installedTools(): Record<string, string> {
  const root = tempWorkspace();
  mkdirSync(join(root, 'pg', '15', 'bin'), { recursive: true });
  writeFileSync(join(root, 'pg', '15', 'bin', 'initdb'), '');
  writeFileSync(join(root, 'chromium'), '');
  writeFileSync(join(root, 'bwrap'), '');
  writeFileSync(join(root, 'socat'), '');
  return {
    AGENT_HARNESS_CHROMIUM: join(root, 'chromium'),
    AGENT_HARNESS_POSTGRES_ROOT: join(root, 'pg'),
    AGENT_HARNESS_BWRAP: join(root, 'bwrap'),
    AGENT_HARNESS_SOCAT: join(root, 'socat'),
  };
}

describe('tests that need Chromium, PostgreSQL, bubblewrap or socat', () => {
  it('run when the tool is there, skip when it is missing, and run (to fail) when it is missing on CI', () => {
    expect(toolDecision(true, false)).toBe('run');
    expect(toolDecision(true, true)).toBe('run');
    expect(toolDecision(false, false)).toBe('skip');
    expect(toolDecision(false, true)).toBe('run');
  });

  it('read CI as CI services set it', () => {
    expect(onCi({})).toBe(false);
    expect(onCi({ CI: '' })).toBe(false);
    expect(onCi({ CI: 'false' })).toBe(false);
    expect(onCi({ CI: '0' })).toBe(false);
    expect(onCi({ CI: 'true' })).toBe(true);
    expect(onCi({ CI: '1' })).toBe(true);
  });

  it('look for each tool where the environment says, Debian paths by default', () => {
    expect(checkTool('chromium', {}).where).toBe('/usr/bin/chromium');
    expect(checkTool('postgres', {}).where).toBe('/usr/lib/postgresql/*/bin/initdb');
    expect(checkTool('chromium', MISSING)).toMatchObject({ found: false, where: '/nonexistent/chromium' });
    expect(checkTool('postgres', MISSING)).toMatchObject({ found: false, where: '/nonexistent/pg/*/bin/initdb' });
    expect(checkTool('bwrap', {}).where).toBe('/usr/bin/bwrap');
    expect(checkTool('bwrap', MISSING)).toMatchObject({ found: false, where: '/nonexistent/bwrap' });
    const installed = installedTools();
    expect(checkTool('chromium', installed).found).toBe(true);
    expect(checkTool('postgres', installed).found).toBe(true);
    expect(checkTool('bwrap', installed).found).toBe(true);
    expect(checkTool('socat', {}).where).toBe('/usr/bin/socat');
    expect(checkTool('socat', MISSING)).toMatchObject({ found: false, where: '/nonexistent/socat' });
    expect(checkTool('socat', installed).found).toBe(true);
  });

  it('are skipped only without the tool and off CI', () => {
    expect(skipWithout('chromium', MISSING)).toBe(true);
    expect(skipWithout('postgres', MISSING)).toBe(true);
    expect(skipWithout('chromium', { ...MISSING, CI: 'true' })).toBe(false);
    expect(skipWithout('postgres', { ...MISSING, CI: 'true' })).toBe(false);
    expect(skipWithout('bwrap', MISSING)).toBe(true);
    expect(skipWithout('bwrap', { ...MISSING, CI: 'true' })).toBe(false);
    const installed = installedTools();
    expect(skipWithout('chromium', installed)).toBe(false);
    expect(skipWithout('postgres', installed)).toBe(false);
  });

  it('print one line naming what is missing and how to install it, and on CI that those tests fail', () => {
    expect(missingToolsLine(installedTools())).toBeUndefined();
    expect(missingToolsLine(MISSING)).toBe(
      'skipped browser tests (not found at /nonexistent/chromium; install: apt-get install chromium), ' +
        'postgres store tests (not found at /nonexistent/pg/*/bin/initdb; install: apt-get install postgresql), ' +
        'sandbox tests (not found at /nonexistent/bwrap; install: apt-get install bubblewrap), ' +
        'sandbox allow-list tests (not found at /nonexistent/socat; install: apt-get install socat)',
    );
    expect(missingToolsLine({ ...installedTools(), AGENT_HARNESS_CHROMIUM: '/nonexistent/chromium' })).toBe(
      'skipped browser tests (not found at /nonexistent/chromium; install: apt-get install chromium)',
    );
    expect(missingToolsLine({ ...MISSING, CI: 'true' })).toMatch(
      /^missing on CI, so these fail: browser tests .+postgres/,
    );
  });
});
