import { existsSync } from 'node:fs';

/**
 * The repository's `bench/` folder, whether this code runs from source (under tsx) or compiled
 * into `.bench/bench/` (what `npm run bench` runs, so that it measures tsc's output, as shipped).
 */
export function benchDir(): URL {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const candidate = new URL('bench/', dir);
    if (existsSync(new URL('run.ts', candidate))) return candidate;
  }
  throw new Error('bench: cannot find the bench/ folder above this file');
}
