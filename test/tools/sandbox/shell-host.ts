// A host process whose own environment holds a secret (as an agent's API key would be), running
// one shell command through the shell tool and printing the tool result as JSON.
// Arguments: the sandbox mode (bwrap or none), the bwrap path, the workspace, the command.
import { Config } from '../../../src/config/config.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { Sandbox, ShellTool } from '../../../src/tools/workspace/index.js';

const [mode, bwrapPath, ws, command] = process.argv.slice(2) as [string, string, string, string];
const config = new Config({ cwd: ws });
const sandbox = Sandbox.create({ mode: mode === 'bwrap' ? 'bwrap' : 'none', bwrapPath });
const registry = new ToolRegistry(config).register(new ShellTool(config, { sandbox }));
const result = await registry.invoke('shell', { command });
process.stdout.write(JSON.stringify(result));
