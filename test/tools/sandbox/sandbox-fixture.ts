import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Config, type ToolResult } from '../../../src/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { Sandbox, type SandboxOptions, ShellTool } from '../../../src/tools/workspace/index.js';
import { bwrapPath, socatPath } from '../../support/required-tools.js';
import { tempWorkspace } from '../../support/workspace.js';

/** The planted private key, whose text must never reach the model from inside the sandbox. */
export const PLANTED_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- planted-for-the-sandbox-test';

/**
 * A workspace `ws` in a temp folder (`root`, "outside"), a home folder `home` (the command's
 * `HOME`) with a planted `~/.ssh/id_rsa` and `~/.aws/credentials`, a `.env` in the workspace, and
 * a `shell` tool per sandbox mode, called as the model would call it.
 */
export function sandboxFixture() {
  const root = tempWorkspace();
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), PLANTED_KEY);
  writeFileSync(join(home, '.aws', 'credentials'), `aws_secret_access_key = ${PLANTED_KEY}`);
  writeFileSync(join(ws, '.env'), `API_KEY=${PLANTED_KEY}`);
  writeFileSync(join(ws, 'README.md'), 'workspace file');
  const config = new Config({ cwd: ws });
  const shell = (mode: 'bwrap' | 'none', options: Omit<SandboxOptions, 'mode'> = {}) => {
    const sandbox = Sandbox.create({ mode, bwrapPath: bwrapPath(), socatPath: socatPath(), ...options });
    const registry = new ToolRegistry(config).register(
      new ShellTool(config, { sandbox, env: { HOME: home }, killGraceMs: 300 }),
    );
    const call = (command: string | string[], timeoutMs?: number): Promise<ToolResult> =>
      registry.invoke('shell', { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    return Object.assign(call, { description: registry.get('shell')?.description ?? '' });
  };
  return { root, ws, home, config, shell };
}

/** What the model reads of a result: its output, or its error. */
export function seen(result: ToolResult): string {
  return result.output ?? result.error ?? '';
}

/** The host pids whose command line holds `marker` (this process and its readers excluded). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(name));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** Polls `check` every 50 ms for at most `ms`; whether it came true. */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
