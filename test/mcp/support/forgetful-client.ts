// Connects to the stdio test server, makes a call, prints the server's pid and its grandchild's,
// and ends without closing the source: the process must still exit, and take the server along.
import { connectMcp } from '../../../src/mcp/connect-mcp.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { testServerStdio } from './test-server-process.js';

const source = await connectMcp(testServerStdio);
const registry = new ToolRegistry().register(...source.tools);
const grandchild = (await registry.invoke('spawn_child', {})).output;
process.stdout.write(`${source.pid} ${grandchild}\n`);
