import { type JsonlFileSystem, nodeFileSystem } from '../../../src/stores/index.js';

type Call = 'write' | 'fsync' | 'ftruncate';

interface Fault {
  readonly call: Call;
  readonly file: string;
  readonly code: string;
  /** For writes: write this fraction of the bytes for real before failing. */
  readonly partial: number;
  /** Calls to let through before failing. */
  skip: number;
}

function failure(code: string, call: string, path: string): Error {
  return Object.assign(new Error(`${code}: injected ${call} failure, ${path}`), { code });
}

/**
 * The real file system with failures injected on demand: a write to a file can fail with ENOSPC
 * or EIO after writing part of its bytes, an fsync or ftruncate can fail. Counts the fsyncs made.
 */
export class FaultyFileSystem {
  readonly #paths = new Map<number, string>();
  readonly #faults: Fault[] = [];
  /** fsync calls per file name (the path's last part). */
  readonly fsyncs = new Map<string, number>();

  /**
   * Fails every later `call` on the file whose path ends with `file` with error `code`, after
   * letting `skip` calls through; a failing write first writes `partial` of its bytes.
   */
  fail(call: Call, file: string, code: string, options: { partial?: number; skip?: number } = {}): void {
    this.#faults.push({ call, file, code, partial: options.partial ?? 0.5, skip: options.skip ?? 0 });
  }

  /** Stops failing. */
  heal(): void {
    this.#faults.length = 0;
  }

  #fault(call: Call, fd: number): { fault: Fault; path: string } | undefined {
    const path = this.#paths.get(fd) ?? '';
    const fault = this.#faults.find((f) => f.call === call && path.endsWith(f.file));
    if (!fault) return undefined;
    if (fault.skip > 0) {
      fault.skip--;
      return undefined;
    }
    return { fault, path };
  }

  readonly fs: JsonlFileSystem = {
    ...nodeFileSystem,
    open: async (path, flags, mode) => {
      const fd = await nodeFileSystem.open(path, flags, mode);
      this.#paths.set(fd, path);
      return fd;
    },
    close: async (fd) => {
      this.#paths.delete(fd);
      await nodeFileSystem.close(fd);
    },
    write: async (fd, data, position) => {
      const found = this.#fault('write', fd);
      if (!found) return nodeFileSystem.write(fd, data, position);
      const part = Math.floor(data.length * found.fault.partial);
      if (part > 0) await nodeFileSystem.write(fd, data.subarray(0, part), position);
      throw failure(found.fault.code, 'write', found.path);
    },
    fsync: async (fd) => {
      const name = (this.#paths.get(fd) ?? '').split('/').pop() ?? '';
      this.fsyncs.set(name, (this.fsyncs.get(name) ?? 0) + 1);
      const found = this.#fault('fsync', fd);
      if (found) throw failure(found.fault.code, 'fsync', found.path);
      await nodeFileSystem.fsync(fd);
    },
    ftruncate: async (fd, length) => {
      const found = this.#fault('ftruncate', fd);
      if (found) throw failure(found.fault.code, 'ftruncate', found.path);
      await nodeFileSystem.ftruncate(fd, length);
    },
  };
}
