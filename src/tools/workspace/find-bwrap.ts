import { spawnSync } from 'node:child_process';
import { locateProgram } from './locate-program.js';

/** What looking for a working `bwrap` found: its path, or why there is none. */
export type BwrapProbe =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: string };

/** Probes already made in this process, by the program asked for and the PATH searched. */
const probes = new Map<string, BwrapProbe>();

/**
 * Finds `program` (default `bwrap`, searched on `path`) and checks that it can make the
 * namespaces the sandbox needs, by running `true` in one: installed is not enough where
 * unprivileged user namespaces are off. Made once per program and PATH in a process.
 */
export function findBwrap(program = 'bwrap', path = process.env.PATH ?? ''): BwrapProbe {
  const key = `${program}\0${path}`;
  let probe = probes.get(key);
  if (probe === undefined) {
    probe = probeBwrap(program, path);
    probes.set(key, probe);
  }
  return probe;
}

function probeBwrap(program: string, path: string): BwrapProbe {
  if (process.platform !== 'linux')
    return { ok: false, problem: `bubblewrap runs on Linux only, not ${process.platform}` };
  const found = locateProgram(program, path);
  if (found === undefined) {
    return {
      ok: false,
      problem: `'${program}' was not found${program.includes('/') ? '' : ' on PATH'}; install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap)`,
    };
  }
  const trial = spawnSync(
    found,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--', 'true'],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000, encoding: 'utf8' },
  );
  if (trial.status === 0) return { ok: true, path: found };
  const why = trial.error?.message ?? (trial.stderr.trim() || `exit code ${trial.status ?? trial.signal}`);
  return { ok: false, problem: `'${found}' cannot make a sandbox here: ${why}` };
}
