import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/**
 * Resolves a `--journal` path and checks, before the run, that its folder exists: finding out
 * after a paid run that the journal cannot be written would lose it.
 */
export function journalPath(text: string): string {
  const path = resolve(text);
  const folder = dirname(path);
  const isDir = (() => {
    try {
      return statSync(folder).isDirectory();
    } catch {
      return false;
    }
  })();
  if (!isDir) throw new UsageError(`--journal: the folder '${folder}' does not exist`);
  return path;
}
