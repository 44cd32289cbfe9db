import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The programs some suites need besides `npm ci`: Chromium for the inspector's page tests, a
 * PostgreSQL server for the postgres store's, bubblewrap for the shell sandbox's and socat for its allow-list of hosts. On a machine without one, plain `npm test` skips
 * those tests and says once, at the end of the run, what is missing and how to install it; with
 * `CI=true` they run and fail, so CI never passes without them.
 */

/** A program some suites need. */
export type RequiredTool = 'chromium' | 'postgres' | 'bwrap' | 'socat';

/** The environment variables read here (the process's by default). */
export type ToolEnv = Readonly<Record<string, string | undefined>>;

/** Where to look for a tool and how to install it when it is not there. */
export interface ToolCheck {
  readonly tool: RequiredTool;
  /** What the tests need, for people. */
  readonly label: string;
  /** The path looked at. */
  readonly where: string;
  readonly found: boolean;
  readonly install: string;
}

/** What the suites that need a tool do: run, or skip (only when it is missing and not on CI). */
export type ToolDecision = 'run' | 'skip';

/** The Chromium the browser tests launch: `AGENT_HARNESS_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export function chromiumPath(env: ToolEnv = process.env): string {
  return env.AGENT_HARNESS_CHROMIUM || '/usr/bin/chromium';
}

/** The bubblewrap the sandbox tests run: `AGENT_HARNESS_BWRAP`, else Debian's `/usr/bin/bwrap`. */
export function bwrapPath(env: ToolEnv = process.env): string {
  return env.AGENT_HARNESS_BWRAP || '/usr/bin/bwrap';
}

/** The socat the allow-list tests forward with inside the sandbox: `AGENT_HARNESS_SOCAT`, else Debian's `/usr/bin/socat`. */
export function socatPath(env: ToolEnv = process.env): string {
  return env.AGENT_HARNESS_SOCAT || '/usr/bin/socat';
}

/** Where the Debian PostgreSQL versions live: `AGENT_HARNESS_POSTGRES_ROOT`, else `/usr/lib/postgresql`. */
export function postgresRoot(env: ToolEnv = process.env): string {
  return env.AGENT_HARNESS_POSTGRES_ROOT || '/usr/lib/postgresql';
}

/** The installed PostgreSQL versions under `root` (those with an `initdb`), newest first. */
export function postgresVersions(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
}

/** Whether `tool` is installed, where it was looked for and how to install it. */
export function checkTool(tool: RequiredTool, env: ToolEnv = process.env): ToolCheck {
  if (tool === 'chromium') {
    const where = chromiumPath(env);
    return { tool, label: 'browser tests', where, found: existsSync(where), install: 'apt-get install chromium' };
  }
  if (tool === 'bwrap') {
    const where = bwrapPath(env);
    return { tool, label: 'sandbox tests', where, found: existsSync(where), install: 'apt-get install bubblewrap' };
  }
  if (tool === 'socat') {
    const where = socatPath(env);
    return {
      tool,
      label: 'sandbox allow-list tests',
      where,
      found: existsSync(where),
      install: 'apt-get install socat',
    };
  }
  const root = postgresRoot(env);
  return {
    tool,
    label: 'postgres store tests',
    where: `${root}/*/bin/initdb`,
    found: postgresVersions(root).length > 0,
    install: 'apt-get install postgresql',
  };
}

/** Whether `CI` is set to a true value (`true`, `1`, …; not `false` or `0`). */
export function onCi(env: ToolEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/** Run the tests that need a tool, unless it is missing on a machine that is not CI. */
export function toolDecision(found: boolean, ci: boolean): ToolDecision {
  return found || ci ? 'run' : 'skip';
}

/** True when the tests needing `tool` are to be skipped here (for `describe.skipIf`). */
export function skipWithout(tool: RequiredTool, env: ToolEnv = process.env): boolean {
  return toolDecision(checkTool(tool, env).found, onCi(env)) === 'skip';
}

/**
 * The one line a run prints about missing tools, or undefined when none is missing: which tests
 * were skipped and how to install what they need, or, on CI, that their failures are why.
 */
export function missingToolsLine(env: ToolEnv = process.env): string | undefined {
  const missing = (['chromium', 'postgres', 'bwrap', 'socat'] as const)
    .map((tool) => checkTool(tool, env))
    .filter((c) => !c.found);
  if (missing.length === 0) return undefined;
  const what = missing.map((c) => `${c.label} (not found at ${c.where}; install: ${c.install})`).join(', ');
  return onCi(env) ? `missing on CI, so these fail: ${what}` : `skipped ${what}`;
}
