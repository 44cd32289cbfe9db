import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The CLI's default store folder, at the workspace's top: the workspace tools never read or
 * write inside it, so a model cannot overwrite or read the session store (or other sessions).
 */
export const STORE_FOLDER = '.agent-harness';

function within(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `path` with its symlinks resolved, as far as it exists (the rest appended). */
async function real(path: string): Promise<string> {
  const missing: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...missing);
    } catch {
      if (dirname(at) === at) return path;
      missing.unshift(basename(at));
    }
  }
}

/**
 * Whether `target` (real, absolute) is one of the protected places of the workspace `root`
 * (real): inside `root/.agent-harness`, or a path of `extra` (relative to `root` or absolute),
 * below it, or beside it sharing its name and a `-` (a SQLite file's `-wal`, `-shm`, `-journal`).
 */
export async function isProtected(root: string, target: string, extra: readonly string[] = []): Promise<boolean> {
  if (within(join(root, STORE_FOLDER), target)) return true;
  for (const path of extra) {
    const guarded = await real(resolve(root, path));
    if (within(guarded, target)) return true;
    if (dirname(target) === dirname(guarded) && basename(target).startsWith(`${basename(guarded)}-`)) return true;
  }
  return false;
}

/** The refusal for a protected path, naming it. */
export function protectedProblem(requested: string): string {
  return `path '${requested}' is in the session store, which the workspace tools do not touch`;
}
