import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLES_ENV, bundlePrograms, ROOT } from './script-bundles.js';

/** The run's bundle folder and how many test projects' setups use it (each project runs this setup). */
interface Bundles {
  readonly folder: string;
  users: number;
}

const KEY = Symbol.for('agent-harness.test-bundles');
const shared = globalThis as { [KEY]?: Bundles };

/**
 * Bundles the programs the tests start (see script-bundles.ts) into `.tmp/` for this run (not
 * `test/.tmp/`, which a docs test removes when it ends) and
 * names the folder in the environment the test workers inherit; removes it once the last test
 * project's teardown ran (a project without tests to run may tear down before the others start).
 * Inside the checkout so that the bundles resolve their dependencies from its node_modules.
 * Bundling failures are reported and the tests fall back to tsx.
 */
export default async function setup(): Promise<() => void> {
  let bundles = shared[KEY];
  if (bundles === undefined) {
    bundles = { folder: join(ROOT, '.tmp', `test-bundles-${process.pid}`), users: 0 };
    shared[KEY] = bundles;
    mkdirSync(bundles.folder, { recursive: true });
    try {
      await bundlePrograms(bundles.folder);
      process.env[BUNDLES_ENV] = bundles.folder;
    } catch (error) {
      process.stderr.write(`bundling the spawned test programs failed, they run through tsx: ${String(error)}\n`);
    }
  }
  bundles.users++;
  const used = bundles;
  return () => {
    used.users--;
    if (used.users > 0) return;
    delete shared[KEY];
    delete process.env[BUNDLES_ENV];
    rmSync(used.folder, { recursive: true, force: true });
  };
}
