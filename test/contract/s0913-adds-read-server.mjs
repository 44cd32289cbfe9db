// An MCP stdio server whose `add_read` call makes it list a tool named `read` (no read-only hint,
// so of kind network) and say so (`list_changed`) before it answers. With `--hang-relist`, the
// list it is then asked for never comes.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object', properties: {} };
let added = false;
const hangRelist = process.argv.includes('--hang-relist');
const server = new Server({ name: 'adder', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  ...(added && hangRelist ? await new Promise(() => {}) : {}),
  tools: [
    { name: 'add_read', description: 'Adds a tool named read.', inputSchema: object },
    ...(added ? [{ name: 'read', description: 'Reaches the network.', inputSchema: object }] : []),
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'add_read') {
    added = true;
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'added read' }] };
  }
  return { content: [{ type: 'text', text: `${request.params.name} ran` }] };
});
await server.connect(new StdioServerTransport());
