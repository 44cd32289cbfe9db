import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { HiddenPath } from './bwrap-args.js';
import { STORE_FOLDER } from './protected-paths.js';
import { workspaceSecrets } from './workspace-secrets.js';

/**
 * Places under the home folder that hold credentials: SSH keys, cloud logins (AWS, Google
 * Cloud, Kubernetes, Docker), GnuPG, and the token files of git, npm, PyPI and GitHub's CLI.
 */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.gnupg',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.config/gh',
];

/** The entry at `path`, real and typed, or undefined when there is none. */
function existing(path: string): HiddenPath | undefined {
  try {
    const real = realpathSync(path);
    return { path: real, folder: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

/** What a sandbox hides, besides the home folder's {@link HOME_SECRETS}. */
export interface SecretPlaces {
  /** The workspace (absolute, real): its `.env*` and credential entries at any depth, and its session store (`.agent-harness/`), are hidden. */
  readonly cwd: string;
  /** Home folders whose {@link HOME_SECRETS} are hidden (the host's and the command's `HOME`). */
  readonly homes: readonly string[];
  /** More paths to hide: absolute, `~/…`, or relative to `cwd`. */
  readonly extra: readonly string[];
}

/**
 * The paths that exist now and are to be hidden: read at each command, so a `.env` created
 * since the last one is hidden too. The workspace is searched at every depth (a bounded walk,
 * see {@link workspaceSecrets}) for `.env*` entries and the home folder's credential names.
 */
export function secretPaths(places: SecretPlaces): HiddenPath[] {
  const candidates = new Set<string>();
  for (const home of places.homes) for (const name of HOME_SECRETS) candidates.add(join(home, name));
  candidates.add(join(places.cwd, STORE_FOLDER));
  const home = places.homes[0];
  for (const path of places.extra) {
    if (path.startsWith('~/') && home !== undefined) candidates.add(join(home, path.slice(2)));
    else candidates.add(isAbsolute(path) ? path : resolve(places.cwd, path));
  }
  const hidden = new Map<string, HiddenPath>();
  for (const candidate of candidates) {
    const found = existing(candidate);
    if (found !== undefined) hidden.set(found.path, found);
  }
  // Already real and never outside the workspace: not passed through `existing`, which follows links.
  for (const found of workspaceSecrets(places.cwd, HOME_SECRETS)) hidden.set(found.path, found);
  return [...hidden.values()];
}
