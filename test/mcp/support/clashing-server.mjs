// An MCP stdio server listing two tools whose names become the same harness name once
// sanitised: `get.item` and `get_item` (both `get_item`). With `--later`, it lists only
// `add_clash` at first; calling it adds the pair and says so (`list_changed`) before answering.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object', properties: {} };
let clashing = !process.argv.includes('--later');
const server = new Server({ name: 'shop', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'add_clash', description: 'Adds get.item and get_item.', inputSchema: object },
    ...(clashing
      ? [
          { name: 'get.item', description: 'Gets an item (dotted name).', inputSchema: object },
          { name: 'get_item', description: 'Gets an item.', inputSchema: object },
        ]
      : []),
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'add_clash') {
    clashing = true;
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'added the clash' }] };
  }
  return { content: [{ type: 'text', text: `${request.params.name} ran` }] };
});
await server.connect(new StdioServerTransport());
