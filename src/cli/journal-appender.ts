import { closeSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { stableJson } from '../core/stable-json.js';
import { writeJournalFile } from '../session/journal-file.js';
import type { Session } from '../session/session.js';
import { PRIVATE_FILE_MODE } from '../stores/private-file.js';

/**
 * `--journal FILE` as the run goes: the file is written whole (header and the session's journal
 * so far, atomically), then each entry is appended as one line the moment the session appends
 * it, with one `write` call, so a process killed at any instant (kill -9 too) leaves every entry
 * appended before it on disk. A failed write stops the appending (the run goes on) and is kept
 * in {@link JournalAppender.failure}: the journal is then saved whole at the end, or to a
 * fallback file (`save-journal.ts`).
 */
export class JournalAppender {
  #fd: number | undefined;
  #stop: () => void = () => {};
  #failure: unknown;

  private constructor(readonly path: string) {}

  /** Starts appending `session`'s entries to `path` (writing what it holds so far first). */
  static async start(
    path: string,
    session: Session,
    meta?: Readonly<Record<string, string>>,
  ): Promise<JournalAppender> {
    const appender = new JournalAppender(path);
    try {
      await writeJournalFile(path, session.journal, meta);
      appender.#fd = openSync(path, 'a', PRIVATE_FILE_MODE);
      appender.#stop = session.onAppend((entry) => appender.#write(`${stableJson(entry)}\n`));
    } catch (error) {
      appender.#failure = error;
    }
    return appender;
  }

  /** Why appending stopped, if it did (the file then misses entries). */
  get failure(): unknown {
    return this.#failure;
  }

  /**
   * True when every entry went to the file and the file is still the one written (not removed,
   * replaced or turned into something else meanwhile).
   */
  intact(): boolean {
    if (this.#failure !== undefined || this.#fd === undefined) return false;
    try {
      const written = fstatSync(this.#fd);
      const now = statSync(this.path);
      return now.isFile() && now.ino === written.ino && now.dev === written.dev;
    } catch {
      return false;
    }
  }

  #write(line: string): void {
    if (this.#fd === undefined) return;
    try {
      writeSync(this.#fd, line);
    } catch (error) {
      this.#failure = error;
      this.close();
    }
  }

  /** Stops appending and closes the file. Idempotent. */
  close(): void {
    this.#stop();
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing left to do with it.
    }
  }
}
