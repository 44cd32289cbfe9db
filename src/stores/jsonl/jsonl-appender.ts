import type { FsyncPolicy } from '../store-options.js';
import { type JsonlFileSystem, writeAll } from './jsonl-file-system.js';
import { encodeLine } from './jsonl-format.js';

/**
 * Appends to one open session file at its known end. One `append` writes its lines with one
 * write and one fsync (`batch`), a write and fsync per line (`always`), or one write (`never`).
 * A failed write or fsync cuts the file back to where the append began, so a half-written
 * append does not stay on disk; if even that fails, the lines left are a torn tail that the
 * reader drops (they lack the line that ends their append).
 */
export class JsonlAppender {
  constructor(
    private readonly fs: JsonlFileSystem,
    private readonly fd: number,
    private size: number,
    private readonly fsync: FsyncPolicy,
  ) {}

  /** Writes `bodies` as the entries `from`, `from+1`, …; resolves once durable per the fsync policy. */
  async append(bodies: readonly string[], from: number): Promise<void> {
    const last = from + bodies.length - 1;
    const lines = bodies.map((body, i) => encodeLine(from + i, last, body));
    const start = this.size;
    let position = start;
    try {
      if (this.fsync === 'always') {
        for (const line of lines) {
          await writeAll(this.fs, this.fd, line, position);
          position += line.length;
          await this.fs.fsync(this.fd);
        }
      } else {
        const all = Buffer.concat(lines);
        await writeAll(this.fs, this.fd, all, position);
        position += all.length;
        if (this.fsync === 'batch') await this.fs.fsync(this.fd);
      }
    } catch (error) {
      await this.#cutBackTo(start);
      throw error;
    }
    this.size = position;
  }

  async #cutBackTo(length: number): Promise<void> {
    try {
      await this.fs.ftruncate(this.fd, length);
      if (this.fsync !== 'never') await this.fs.fsync(this.fd);
    } catch {
      // The torn lines stay; readers drop them and the next writer cuts them off.
    }
  }

  /** Closes the file. */
  close(): Promise<void> {
    return this.fs.close(this.fd);
  }
}
