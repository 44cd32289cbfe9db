import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLES_ENV, bundlePrograms, ROOT } from './script-bundles.js';

/**
 * Bundles the programs the tests start (see script-bundles.ts) into `test/.tmp` for this run and
 * names the folder in the environment the test workers inherit; removes it after the run. Inside
 * the checkout so that the bundles resolve their dependencies from its node_modules. Bundling
 * failures are reported and the tests fall back to tsx.
 */
export default async function setup(): Promise<() => void> {
  if (process.env[BUNDLES_ENV]) return () => {}; // the other test project's setup made them
  const folder = join(ROOT, 'test', '.tmp', `bundles-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  try {
    await bundlePrograms(folder);
    process.env[BUNDLES_ENV] = folder;
  } catch (error) {
    process.stderr.write(`bundling the spawned test programs failed, they run through tsx: ${String(error)}\n`);
  }
  return () => {
    delete process.env[BUNDLES_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}
