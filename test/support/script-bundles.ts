import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The TypeScript programs the tests start as processes (the CLI, crash and suspend children, the
 * MCP test server) run through `node --import tsx`, which compiles the program's whole module
 * graph at every start. The global setup bundles them once per run with esbuild (installed with
 * tsx), so each spawn only loads one file; a test started without that setup, or a program not
 * bundled, falls back to tsx. The behaviour is the same code's: only dependencies stay outside
 * the bundle (resolved from the checkout's node_modules, as tsx resolves them).
 */

/** The checkout's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The environment variable naming the run's bundle folder (inherited by every process the tests start). */
export const BUNDLES_ENV = 'AGENT_HARNESS_TEST_BUNDLES';

/** The programs the tests start, relative to the checkout. */
export const SPAWNED_PROGRAMS: readonly string[] = [
  'src/cli/bin.ts',
  'test/approval/suspended-child.ts',
  'test/journal/support/crash-agent.ts',
  'test/subagents/support/crash-delegation.ts',
  'test/mcp/support/test-server.ts',
  'test/mcp/support/forgetful-client.ts',
  'test/restate/support/worker-main.ts',
];

const bundled = (path: string) => path.replace(/\.ts$/, '.mjs');

/**
 * Bundles {@link SPAWNED_PROGRAMS} into `folder`, each at its own relative path (`.mjs`), and links
 * the inspector's assets next to each, where the bundled `page-assets.ts` looks for them.
 */
export async function bundlePrograms(folder: string): Promise<void> {
  const esbuild = (await import(/* @vite-ignore */ 'esbuild')) as typeof import('esbuild');
  await esbuild.build({
    entryPoints: SPAWNED_PROGRAMS.map((program) => join(ROOT, program)),
    outdir: folder,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
  // esbuild keeps its service process (and the pipes to it) until told to stop: vitest's main
  // process would then wait for it at exit.
  await esbuild.stop();
  for (const program of SPAWNED_PROGRAMS) {
    const assets = join(folder, dirname(program), 'assets');
    mkdirSync(dirname(assets), { recursive: true });
    if (!existsSync(assets)) symlinkSync(join(ROOT, 'src', 'inspector', 'assets'), assets, 'dir');
  }
}

/**
 * The node arguments that start the TypeScript program `script` (absolute, or relative to the
 * checkout): its bundle when the run made one, else `--import tsx script`.
 */
export function nodeArgs(script: string, env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const folder = env[BUNDLES_ENV];
  if (folder) {
    const absolute = isAbsolute(script) ? script : join(ROOT, script);
    // A bundled program naming a sibling by its own location is already inside the folder.
    const inside = relative(folder, absolute);
    const candidate =
      inside.startsWith('..') || isAbsolute(inside)
        ? join(folder, bundled(relative(ROOT, absolute)))
        : bundled(absolute);
    if (existsSync(candidate)) return [candidate];
  }
  return ['--import', 'tsx', script];
}
