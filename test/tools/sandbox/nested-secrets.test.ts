import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../support/required-tools.js';
import { PLANTED_KEY, sandboxFixture, seen } from './sandbox-fixture.js';

// Secrets below the top of the workspace (issue 33). Each read runs first without the sandbox,
// to show the secret is there to read (so the test can fail), then in bubblewrap.

describe.skipIf(skipWithout('bwrap'))('shell in the bubblewrap sandbox: secrets in subfolders', () => {
  it('cannot read a .env, .env.* or credential file in a subfolder; the rest of the folder reads as usual', async () => {
    const { ws, shell } = sandboxFixture();
    mkdirSync(join(ws, 'app', 'config', 'deep'), { recursive: true });
    writeFileSync(join(ws, 'app', '.env'), `DB_PASSWORD=${PLANTED_KEY}`);
    writeFileSync(join(ws, 'app', 'config', 'deep', '.env.production'), `TOKEN=${PLANTED_KEY}`);
    writeFileSync(join(ws, 'app', 'config', '.npmrc'), `//registry.npmjs.org/:_authToken=${PLANTED_KEY}`);
    writeFileSync(join(ws, 'app', 'main.js'), 'app source');
    const attempt = 'cat app/.env app/config/deep/.env.production app/config/.npmrc; cat app/main.js';
    const plain = seen(await shell('none')(attempt));
    expect(plain.split(PLANTED_KEY)).toHaveLength(4); // all three readable without a sandbox

    const boxed = seen(await shell('bwrap')(attempt));
    expect(boxed).toMatch(/^exit code 0/); // there, and empty: not an error to read
    expect(boxed).not.toContain(PLANTED_KEY);
    expect(boxed).toContain('app source');
  });

  it('a .env symlink pointing outside is not followed: the host file it names is not covered', async () => {
    const { root, ws, shell } = sandboxFixture();
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', 'host.txt'), 'host file, readable in the sandbox as all of / is');
    mkdirSync(join(ws, 'svc'));
    symlinkSync(join(root, 'outside', 'host.txt'), join(ws, 'svc', '.env'));
    symlinkSync(join(root, 'outside', 'host.txt'), join(ws, '.env.host')); // at the top too
    const attempt = `cat ${join(root, 'outside', 'host.txt')}`;
    expect(seen(await shell('none')(attempt))).toContain('host file');

    // An overlay that followed the link would empty the host's file inside the sandbox.
    const boxed = seen(await shell('bwrap')(attempt));
    expect(boxed).toMatch(/^exit code 0/);
    expect(boxed).toContain('host file');
    expect(readFileSync(join(root, 'outside', 'host.txt'), 'utf8')).toContain('host file');
  });

  it('a .env symlink pointing inside the workspace hides its target, under either name', async () => {
    const { ws, shell } = sandboxFixture();
    mkdirSync(join(ws, 'svc'));
    writeFileSync(join(ws, 'svc', 'settings.txt'), `KEY=${PLANTED_KEY}`);
    symlinkSync('settings.txt', join(ws, 'svc', '.env'));
    const attempt = 'cat svc/.env svc/settings.txt; cat README.md';
    expect(seen(await shell('none')(attempt)).split(PLANTED_KEY)).toHaveLength(3);

    const boxed = seen(await shell('bwrap')(attempt));
    expect(boxed).not.toContain(PLANTED_KEY);
    expect(boxed).toContain('workspace file');
  });

  it('a .env the command writes is its own during that run, and hidden from the next command', async () => {
    const { shell } = sandboxFixture();
    const write = `mkdir -p made && echo "KEY=${PLANTED_KEY}" > made/.env && cat made/.env`;
    expect(seen(await shell('bwrap')(write))).toContain(PLANTED_KEY);

    const next = seen(await shell('bwrap')('cat made/.env'));
    expect(next).toMatch(/^exit code 0/);
    expect(next).not.toContain(PLANTED_KEY);
  });
});
