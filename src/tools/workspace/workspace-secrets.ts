import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { HiddenPath } from './bwrap-args.js';

/** Folders below this depth under the workspace (its top is depth 0) are not searched for secrets. */
export const SECRET_WALK_MAX_DEPTH = 8;

/** The walk for secrets stops after this many folder entries (files and folders seen). */
export const SECRET_WALK_MAX_ENTRIES = 20_000;

/** Folders the walk for secrets never enters: dependencies and git's own data. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Whether an entry named `name` anywhere in the workspace holds secrets: `.env*`, or one of the
 * credential names hidden under the home folder (`homeNames`: `.ssh`, `.npmrc`, …).
 */
function isSecretName(name: string, homeNames: ReadonlySet<string>): boolean {
  return name.startsWith('.env') || homeNames.has(name);
}

/**
 * The secret entries at any depth of the workspace `cwd` (absolute, real): every `.env*` entry
 * and every entry named as one of `homeNames`. A bounded walk: `node_modules` and `.git` are
 * skipped, symlinked folders are not followed, folders deeper than {@link SECRET_WALK_MAX_DEPTH}
 * are not read, and it stops after {@link SECRET_WALK_MAX_ENTRIES} entries.
 *
 * A secret name that is a symlink is never followed out of the workspace: covering it would
 * cover its target, a host path. Its target is hidden only when it lies inside the workspace.
 */
export function workspaceSecrets(cwd: string, homeNames: readonly string[]): HiddenPath[] {
  const names = new Set(homeNames.filter((name) => !name.includes('/')));
  const found: HiddenPath[] = [];
  const queue: { folder: string; depth: number }[] = [{ folder: cwd, depth: 0 }];
  let seen = 0;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(next.folder, { withFileTypes: true });
    } catch {
      continue; // Unreadable to us: unreadable to the command too, as it runs as the same user.
    }
    for (const entry of entries) {
      if (++seen > SECRET_WALK_MAX_ENTRIES) return found;
      const path = join(next.folder, entry.name);
      if (isSecretName(entry.name, names)) {
        const hidden = entry.isSymbolicLink() ? targetInside(cwd, path) : { path, folder: entry.isDirectory() };
        if (hidden !== undefined) found.push(hidden);
      } else if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && next.depth < SECRET_WALK_MAX_DEPTH) {
        queue.push({ folder: path, depth: next.depth + 1 });
      }
    }
  }
  return found;
}

/** The real target of the symlink at `path` when it lies inside `cwd`; undefined when outside or dangling. */
function targetInside(cwd: string, path: string): HiddenPath | undefined {
  try {
    const real = realpathSync(path);
    if (real === cwd || !real.startsWith(cwd + sep)) return undefined;
    return { path: real, folder: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}
