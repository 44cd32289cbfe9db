import * as fs from 'node:fs';

/**
 * The file-system calls the `jsonl:` store makes, one function per system call, so tests can
 * make any of them fail (ENOSPC half-way through a write, EIO on fsync). Paths are absolute;
 * failures reject with Node's usual errors (`code` = 'ENOENT', 'EEXIST', …).
 */
export interface JsonlFileSystem {
  /** `mkdir -p` with `mode` for the folders it creates. */
  mkdir(path: string, mode: number): Promise<void>;
  /** The names in a folder. */
  readdir(path: string): Promise<string[]>;
  /** A whole file. */
  readFile(path: string): Promise<Buffer>;
  /** Size and modification time of a file. */
  stat(path: string): Promise<{ readonly size: number; readonly mtimeMs: number }>;
  /** Opens a file (`flags` as for `fs.open`: 'r', 'r+', 'wx') and returns its descriptor. */
  open(path: string, flags: string, mode: number): Promise<number>;
  /** Writes `data` at byte `position`; resolves with the bytes written, which may be fewer. */
  write(fd: number, data: Uint8Array, position: number): Promise<number>;
  /** Flushes a file (or, opened with 'r', a folder) to the disk. */
  fsync(fd: number): Promise<void>;
  /** Cuts a file to `length` bytes. */
  ftruncate(fd: number, length: number): Promise<void>;
  /** Closes a descriptor. */
  close(fd: number): Promise<void>;
  /** Renames atomically, replacing `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Hard-links `existing` as `path`; fails with EEXIST when `path` exists (the lock's atomic create). */
  link(existing: string, path: string): Promise<void>;
  /** Removes a file. */
  unlink(path: string): Promise<void>;
}

function call<T>(run: (done: (error: NodeJS.ErrnoException | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}

/** The real file system, through node:fs. */
export const nodeFileSystem: JsonlFileSystem = {
  mkdir: async (path, mode) => {
    await fs.promises.mkdir(path, { recursive: true, mode });
  },
  readdir: (path) => fs.promises.readdir(path),
  readFile: (path) => fs.promises.readFile(path),
  stat: (path) => fs.promises.stat(path),
  open: (path, flags, mode) => call((done) => fs.open(path, flags, mode, done)),
  write: (fd, data, position) => call((done) => fs.write(fd, data, 0, data.length, position, done)),
  fsync: (fd) => call((done) => fs.fsync(fd, done)),
  ftruncate: (fd, length) => call((done) => fs.ftruncate(fd, length, done)),
  close: (fd) => call((done) => fs.close(fd, done)),
  rename: (from, to) => fs.promises.rename(from, to),
  link: (existing, path) => fs.promises.link(existing, path),
  unlink: (path) => fs.promises.unlink(path),
};

/** Writes all of `data` at `position`, looping over short writes. */
export async function writeAll(fs: JsonlFileSystem, fd: number, data: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const written = await fs.write(fd, data.subarray(done), position + done);
    if (written <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    done += written;
  }
}

/** Flushes a folder's entries (a new or renamed file's name) to the disk. */
export async function fsyncFolder(fs: JsonlFileSystem, path: string): Promise<void> {
  const fd = await fs.open(path, 'r', 0);
  try {
    await fs.fsync(fd);
  } finally {
    await fs.close(fd);
  }
}
