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

/** What {@link writeAtomically} checks just before its rename. */
export interface AtomicWriteOptions {
  /**
   * The bytes the new content was made from: if the target no longer holds exactly them (another
   * writer changed or removed it since it was read), nothing is written and a
   * {@link WriteConflictError} is thrown, so that change is not lost.
   */
  readonly basedOn?: Buffer;
}

/** The target changed between the read that a write was based on and the write. */
export class WriteConflictError extends Error {
  constructor(readonly path: string) {
    super(`'${path}' changed while it was being edited`);
    this.name = 'WriteConflictError';
  }
}

/** Whether `path` still holds exactly `expected` (a missing file does not). */
async function holds(path: string, expected: Buffer): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
    // One byte more than expected is enough to see that the file grew.
    const buffer = Buffer.alloc(expected.length + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return bytesRead === expected.length && buffer.subarray(0, bytesRead).equals(expected);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  } finally {
    await handle?.close();
  }
}

/** The permission bits of the file being replaced; gone already is a conflict for a `basedOn` write. */
async function modeOf(path: string, options: AtomicWriteOptions): Promise<number> {
  try {
    return (await lstat(path)).mode & 0o7777;
  } catch (error) {
    if (options.basedOn !== undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new WriteConflictError(path);
    }
    throw error;
  }
}

/**
 * Writes `data` to the place {@link resolveWritable} approved, atomically: into a new temp file
 * beside it (created exclusively, never through a symlink), flushed to disk, then renamed over
 * the target. A crash leaves the old file or the new one, never half of one. The folder is
 * checked again just before the rename, so a folder swapped for a symlink meanwhile is refused.
 * An existing file keeps its permission bits. With `basedOn`, the target's content is compared
 * with it last, just before the rename (see {@link AtomicWriteOptions}).
 */
export async function writeAtomically(
  target: Extract<WritablePath, { ok: true }>,
  data: string,
  options: AtomicWriteOptions = {},
): Promise<number> {
  await createFolders(target.missing);
  const folder = dirname(target.path);
  const mode = target.exists ? await modeOf(target.path, options) : 0o666;
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
    if (options.basedOn !== undefined && !(await holds(target.path, options.basedOn))) {
      throw new WriteConflictError(target.path);
    }
    await rename(temp, target.path);
    return bytes.length;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
