import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isProtected, protectedProblem } from './protected-paths.js';

/** Whether `target` is `root` or below it (both absolute). `..name` is inside; `..` is not. */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The workspace folder with its symlinks resolved (itself when it does not exist). */
export async function workspaceRoot(cwd: string): Promise<string> {
  try {
    return await realpath(cwd);
  } catch {
    return resolve(cwd);
  }
}

/** `path` relative to the workspace, with `/` separators, as the model sees it. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** Where a write may go, or why it may not. */
export type WritablePath =
  | {
      readonly ok: true;
      /** The real absolute path to write (an existing file, or a new one in a real folder). */
      readonly path: string;
      /** The workspace, real. */
      readonly root: string;
      /** Whether a file is already there. */
      readonly exists: boolean;
      /** Folders to create, outermost first (absolute), before the file can be written. */
      readonly missing: readonly string[];
    }
  | { readonly ok: false; readonly problem: string };

async function lstatOrUndefined(path: string) {
  return lstat(path).catch(() => undefined);
}

/**
 * Resolves a path to write. Unlike a read, the file (and some of its folders) may not exist
 * yet, so the check is on the nearest folder that does exist: its real path must be inside the
 * workspace. That refuses a new file under a symlinked folder pointing out, which a check of
 * the target alone (still missing, so not resolvable) would let through. A path in the session
 * store (`.agent-harness/`, or one of `protectedPaths`) is refused.
 */
export async function resolveWritable(
  cwd: string,
  requested: string,
  protectedPaths: readonly string[] = [],
): Promise<WritablePath> {
  const found = await writable(cwd, requested);
  if (found.ok && (await isProtected(found.root, found.path, protectedPaths))) {
    return { ok: false, problem: protectedProblem(requested) };
  }
  return found;
}

async function writable(cwd: string, requested: string): Promise<WritablePath> {
  if (requested === '' || requested.includes('\0')) {
    return { ok: false, problem: 'path must be a non-empty string without NUL' };
  }
  const lexical = resolve(cwd, requested);
  if (!isInside(resolve(cwd), lexical)) return { ok: false, problem: `path '${requested}' is outside the workspace` };
  if (lexical === resolve(cwd)) return { ok: false, problem: `path '${requested}' is the workspace folder itself` };
  const root = await workspaceRoot(cwd);
  const outside = { ok: false, problem: `path '${requested}' leads outside the workspace (symlink)` } as const;

  const existing = await lstatOrUndefined(lexical);
  if (existing !== undefined) {
    const real = await realpath(lexical).catch(() => undefined);
    if (real === undefined) return { ok: false, problem: `path '${requested}' is a symlink to nothing` };
    if (!isInside(root, real)) return outside;
    const info = await lstat(real);
    if (info.isDirectory()) return { ok: false, problem: `path '${requested}' is a folder` };
    if (!info.isFile()) return { ok: false, problem: `path '${requested}' is not a regular file` };
    return { ok: true, path: real, root, exists: true, missing: [] };
  }

  // Climb to the nearest existing ancestor; the names below it are created as real folders.
  const names = [basename(lexical)];
  let ancestor = dirname(lexical);
  while ((await lstatOrUndefined(ancestor)) === undefined) {
    names.unshift(basename(ancestor));
    ancestor = dirname(ancestor);
  }
  const realAncestor = await realpath(ancestor).catch(() => undefined);
  if (realAncestor === undefined)
    return { ok: false, problem: `path '${requested}' goes through a symlink to nothing` };
  if (!isInside(root, realAncestor)) return outside;
  if (!(await lstat(realAncestor)).isDirectory()) {
    return { ok: false, problem: `path '${requested}' goes through '${displayPath(root, realAncestor)}', a file` };
  }
  const missing: string[] = [];
  let folder = realAncestor;
  for (const name of names.slice(0, -1)) {
    folder = join(folder, name);
    missing.push(folder);
  }
  return { ok: true, path: join(folder, names[names.length - 1] ?? ''), root, exists: false, missing };
}

/** A file name as one printable line: quoted as JSON when it holds a control character (a newline, say). */
export function printable(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return JSON.stringify(name);
  }
  return name;
}
