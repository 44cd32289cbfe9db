import { randomUUID } from 'node:crypto';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';

/** Mode of files that hold a run (prompts, tool output): the owner reads and writes, nobody else. */
export const PRIVATE_FILE_MODE = 0o600;

/** Mode of folders made to hold such files. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Writes `text` to `path` atomically, mode 0600 whatever the umask: to a temporary file beside
 * it, then renamed over the target, so a crash never leaves a partial file under the real name
 * and an existing file's wider mode is not kept.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await chmod(temporary, PRIVATE_FILE_MODE); // the mode above is narrowed by the umask only; this is exact
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
