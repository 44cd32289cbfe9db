import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isProtected, protectedProblem } from './workspace/protected-paths.js';

/** Why a path was refused, or the resolved absolute path. */
export type WorkspacePath = { ok: true; path: string } | { ok: false; problem: string };

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  // `..name` is a file inside; only `..` itself or a path through it leaves the root.
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/** Symlinks followed, at most, on the way to a path that does not exist (a loop ends there). */
const MAX_LINK_HOPS = 40;

/**
 * The real path of `path`; for a path that does not exist (yet), the real path of its nearest
 * existing ancestor with the missing names appended, following a dangling symlink to where it
 * points: a missing file below a symlinked folder, or a link to nothing, is judged by where it
 * really leads.
 */
async function realOrNearest(path: string): Promise<string> {
  const missing: string[] = [];
  let at = path;
  for (let hops = 0; hops <= MAX_LINK_HOPS; ) {
    try {
      return join(await realpath(at), ...missing);
    } catch {
      const link = await readlink(at).catch(() => undefined);
      if (link !== undefined) {
        at = resolve(dirname(at), link);
        hops++;
        continue;
      }
      const parent = dirname(at);
      if (parent === at) return path;
      missing.unshift(basename(at));
      at = parent;
    }
  }
  return path;
}

/**
 * Resolves `requested` against the workspace and refuses anything that lands outside it:
 * `..` escapes, absolute paths elsewhere, and symlinks whose target is outside (also a path
 * that does not exist yet, below a symlinked folder that points outside). A path in the session
 * store (`.agent-harness/`, or one of `protectedPaths`) is refused too.
 */
export async function resolveInWorkspace(
  workspace: string,
  requested: string,
  protectedPaths: readonly string[] = [],
): Promise<WorkspacePath> {
  if (requested === '' || requested.includes('\0'))
    return { ok: false, problem: 'path must be a non-empty string without NUL' };
  const root = await realOrSelf(workspace);
  const lexical = resolve(workspace, requested);
  if (!inside(resolve(workspace), lexical)) {
    return { ok: false, problem: `path '${requested}' is outside the workspace` };
  }
  const real = await realOrNearest(lexical);
  if (!inside(root, real)) return { ok: false, problem: `path '${requested}' leads outside the workspace (symlink)` };
  if (await isProtected(root, real, protectedPaths)) return { ok: false, problem: protectedProblem(requested) };
  return { ok: true, path: real };
}
