import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WritablePath } from './confine.js';

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Creates `folders` (outermost first) as real folders; an existing one must be a real folder too. */
async function createFolders(folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    if (!(await lstat(folder)).isDirectory()) throw new Error(`'${folder}' is not a folder`);
  }
}

/**
 * Writes `data` to the place {@link resolveWritable} approved, atomically: into a new temp file
 * beside it (created exclusively, never through a symlink), flushed to disk, then renamed over
 * the target. A crash leaves the old file or the new one, never half of one. The folder is
 * checked again just before the rename, so a folder swapped for a symlink meanwhile is refused.
 * An existing file keeps its permission bits.
 */
export async function writeAtomically(target: Extract<WritablePath, { ok: true }>, data: string): Promise<number> {
  await createFolders(target.missing);
  const folder = dirname(target.path);
  const mode = target.exists ? (await lstat(target.path)).mode & 0o7777 : 0o666;
  const temp = join(folder, `.${basename(target.path)}.${randomBytes(6).toString('hex')}.tmp`);
  const unchanged = async (): Promise<void> => {
    if ((await realpath(folder)) !== folder) throw new Error(`folder '${folder}' changed while writing; refused`);
  };
  await unchanged();
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode);
    const bytes = Buffer.from(data, 'utf8');
    await handle.writeFile(bytes);
    if (target.exists) await handle.chmod(mode); // the umask may have narrowed it at creation
    await handle.datasync();
    await handle.close();
    handle = undefined;
    await unchanged();
    await rename(temp, target.path);
    return bytes.length;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
