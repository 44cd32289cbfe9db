import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLES_ENV, nodeArgs, ROOT, SPAWNED_PROGRAMS } from '../support/script-bundles.js';
import { tempWorkspace } from '../support/workspace.js';

describe('the programs the tests start', () => {
  it('run from the bundle the run made, else through tsx', () => {
    const folder = tempWorkspace();
    mkdirSync(join(folder, 'src', 'cli'), { recursive: true });
    writeFileSync(join(folder, 'src', 'cli', 'bin.mjs'), '');
    const env = { [BUNDLES_ENV]: folder };
    expect(nodeArgs('src/cli/bin.ts', env)).toEqual([join(folder, 'src', 'cli', 'bin.mjs')]);
    expect(nodeArgs(join(ROOT, 'src/cli/bin.ts'), env)).toEqual([join(folder, 'src', 'cli', 'bin.mjs')]);
    // A bundled program names a sibling by its own location, inside the folder.
    expect(nodeArgs(join(folder, 'src', 'cli', 'bin.ts'), env)).toEqual([join(folder, 'src', 'cli', 'bin.mjs')]);
    expect(nodeArgs('test/approval/suspended-child.ts', env)).toEqual([
      '--import',
      'tsx',
      'test/approval/suspended-child.ts',
    ]);
    expect(nodeArgs('src/cli/bin.ts', {})).toEqual(['--import', 'tsx', 'src/cli/bin.ts']);
  });

  it('are bundled for this run, every one of them', () => {
    const folder = process.env[BUNDLES_ENV];
    expect(folder, 'the global setup names the bundle folder').toBeDefined();
    for (const program of SPAWNED_PROGRAMS)
      expect(nodeArgs(program)).toEqual([join(folder ?? '', program.replace(/\.ts$/, '.mjs'))]);
  });
});
