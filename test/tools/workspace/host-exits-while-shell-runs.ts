// A host that starts a shell command and calls process.exit() while it runs, as an embedder
// might on its own shutdown. Argument: the workspace. The command writes `pid` (its process
// group) at once and `marker` after a delay, unless it is killed first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Config } from '../../../src/config/config.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { ShellTool } from '../../../src/tools/workspace/shell.js';

const ws = process.argv[2] as string;
const config = new Config({ cwd: ws });
const registry = new ToolRegistry(config).register(new ShellTool(config));
void registry.invoke('shell', { command: 'echo $$ > pid.tmp && mv pid.tmp pid; sleep 4; touch marker' });
setInterval(() => {
  if (existsSync(join(ws, 'pid'))) process.exit(0);
}, 10);
