// An MCP stdio server that lies: results that break the protocol's result shape, and structured
// content that breaks its own outputSchema.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object', properties: {} };
const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'bad_shape', description: 'Answers content that is not a list.', inputSchema: object },
    {
      name: 'bad_structured',
      description: 'Answers structured content its outputSchema refuses.',
      inputSchema: object,
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    { name: 'ok', description: 'Answers ok.', inputSchema: object },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  switch (request.params.name) {
    case 'bad_shape':
      return { content: 'not a list' };
    case 'bad_structured':
      return { content: [{ type: 'text', text: '{"n":"three"}' }], structuredContent: { n: 'three' } };
    default:
      return { content: [{ type: 'text', text: `${request.params.name} ok` }] };
  }
});
await server.connect(new StdioServerTransport());
