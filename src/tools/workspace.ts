import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

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

/**
 * Resolves `requested` against the workspace and refuses anything that lands outside it:
 * `..` escapes, absolute paths elsewhere, and symlinks whose target is outside.
 */
export async function resolveInWorkspace(workspace: string, requested: string): Promise<WorkspacePath> {
  if (requested === '' || requested.includes('\0'))
    return { ok: false, problem: 'path must be a non-empty string without NUL' };
  const root = await realOrSelf(workspace);
  const lexical = resolve(workspace, requested);
  if (!inside(resolve(workspace), lexical)) {
    return { ok: false, problem: `path '${requested}' is outside the workspace` };
  }
  const real = await realOrSelf(lexical);
  if (!inside(root, real)) return { ok: false, problem: `path '${requested}' leads outside the workspace (symlink)` };
  return { ok: true, path: real };
}
