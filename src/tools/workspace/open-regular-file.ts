import { constants } from 'node:fs';
import { type FileHandle, lstat, open, realpath, stat } from 'node:fs/promises';
import { isInside } from './confine.js';

/** An open regular file, or why it was not opened. */
export type OpenedFile =
  | { readonly ok: true; readonly handle: FileHandle; readonly size: number }
  | { readonly ok: false; readonly problem: string };

/** `O_NOFOLLOW` where the platform has it (not on Windows). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** Opening a FIFO for reading without it blocks until a writer comes. */
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/**
 * Opens `path` (absolute, already resolved inside `root`) for reading, only if it is a regular
 * file. A FIFO, socket or device is refused before it is opened, and again after (the open is
 * non-blocking, so a FIFO swapped in between cannot hang the call); a symlink swapped in for
 * the file fails the open (`O_NOFOLLOW`); a folder swapped for a symlink on the way is caught by
 * checking, after the open, that the path still resolves inside `root` to the opened file.
 * `shown` names the file in messages. The caller closes the handle.
 */
export async function openRegularFile(root: string, path: string, shown: string): Promise<OpenedFile> {
  const before = await lstat(path).catch(() => undefined);
  if (before === undefined) return { ok: false, problem: `File not found: ${shown}` };
  if (!before.isFile()) return { ok: false, problem: `Not a file: ${shown}` };
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return { ok: false, problem: `File not found: ${shown}` };
    if (code === 'ELOOP') return { ok: false, problem: `path '${shown}' became a symlink; not followed` };
    if (code === 'ENXIO') return { ok: false, problem: `Not a file: ${shown}` };
    return { ok: false, problem: `Cannot open ${shown}: ${code ?? String(error)}` };
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) {
      await handle.close();
      return { ok: false, problem: `Not a file: ${shown}` };
    }
    const real = await realpath(path).catch(() => undefined);
    const now = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (real === undefined || !isInside(root, real) || now?.ino !== opened.ino || now.dev !== opened.dev) {
      await handle.close();
      return { ok: false, problem: `path '${shown}' changed while it was opened; refused` };
    }
    return { ok: true, handle, size: opened.size };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
