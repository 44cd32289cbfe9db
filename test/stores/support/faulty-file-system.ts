import { type JsonlFileSystem, nodeFileSystem } from '../../../src/stores/index.js';

type Call = 'write' | 'fsync' | 'ftruncate';

interface Fault {
  readonly call: Call;
  readonly file: string;
  readonly code: string;
  /** For writes: write this fraction of the bytes for real before failing. */
  readonly partial: number;
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
  /** fsync calls per path. */
  readonly fsyncs = new Map<string, number>();

  /** Fails every later `call` on the file whose path ends with `file`. */
  fail(call: Call, file: string, code: string, partial = 0.5): void {
    this.#faults.push({ call, file, code, partial });
  }

  /** Stops failing. */
  heal(): void {
    this.#faults.length = 0;
  }

  #fault(call: Call, fd: number): { fault: Fault; path: string } | undefined {
    const path = this.#paths.get(fd) ?? '';
    const fault = this.#faults.find((f) => f.call === call && path.endsWith(f.file));
    return fault ? { fault, path } : undefined;
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
      const path = this.#paths.get(fd) ?? '';
      this.fsyncs.set(path, (this.fsyncs.get(path) ?? 0) + 1);
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
