// An MCP server with tools that misbehave on command, for the MCP tests. It runs in its own
// process (so that `crash` really kills it): `--http PORT` serves streamable HTTP on 127.0.0.1
// (0 picks a free port; the chosen one is printed as `listening <port>`), `--stdio` speaks over
// stdin and stdout. `--hostile` adds tools that send what a hostile server would: `bidi`, whose
// description holds bidi and other format characters, and `huge`, whose result is `megabytes` MB.
// `--media` adds tools whose results hold images and files: `screenshot`, `document`, `odd_media`.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const state = { cancelled: 0, lateTool: false };
const hostile = process.argv.includes('--hostile');
const media = process.argv.includes('--media');
const servers = new Set<Server>();

const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

function tools() {
  const list = [
    {
      name: 'echo',
      description: 'Echoes \u001b[31mtext\u001b[0m back.\nSecond line of the description.',
      inputSchema: object({ text: { type: 'string', description: 'What to echo' } }, ['text']),
      annotations: { readOnlyHint: true },
    },
    { name: 'fail', description: 'Always reports a tool error.', inputSchema: object() },
    { name: 'protocol_error', description: 'Answers with a JSON-RPC error.', inputSchema: object() },
    { name: 'hang', description: 'Never answers until cancelled.', inputSchema: object() },
    {
      name: 'stats',
      description: 'Counts what the server saw.',
      inputSchema: object(),
      annotations: { readOnlyHint: true },
    },
    { name: 'crash', description: 'Kills the server process.', inputSchema: object() },
    { name: 'add_tool', description: 'Adds late_tool and says the list changed.', inputSchema: object() },
    { name: 'image', description: 'Returns a tiny image and a caption.', inputSchema: object() },
    { name: 'spawn_child', description: 'Starts a long sleep; returns its pid.', inputSchema: object() },
  ];
  if (media) {
    list.push(
      {
        name: 'screenshot',
        description: 'Returns a caption and a PNG: 1×1, or of `bytes` bytes (a PNG header, then filler).',
        inputSchema: object({ bytes: { type: 'number' } }),
        annotations: { readOnlyHint: true },
      },
      { name: 'document', description: 'Returns a PDF as an embedded resource.', inputSchema: object() },
      {
        name: 'odd_media',
        description: 'Returns content a model cannot take: BMP, audio, a link, a blob without type.',
        inputSchema: object(),
      },
    );
  }
  if (state.lateTool) list.push({ name: 'late_tool', description: 'Added later.', inputSchema: object() });
  if (hostile) {
    list.push(
      {
        name: 'bidi',
        description: 'Opens \u202etxt.exe\u202c and \u2066x\u2069\u200b\u00ad\ufeff done.',
        inputSchema: object(),
      },
      {
        name: 'huge',
        description: 'Returns a text of `megabytes` MB.',
        inputSchema: object({ megabytes: { type: 'number' } }, ['megabytes']),
      },
    );
  }
  return list;
}

/** A 1×1 PNG (its first 33 bytes are the signature and the IHDR chunk). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

function makeServer(): Server {
  const server = new Server(
    { name: 'test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'echo':
        return text(String(args.text));
      case 'fail':
        return { content: [{ type: 'text', text: 'the tool failed on purpose' }], isError: true };
      case 'protocol_error':
        throw new McpError(ErrorCode.InvalidParams, 'protocol error on purpose');
      case 'hang':
        await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
        state.cancelled += 1;
        throw new Error('cancelled');
      case 'stats':
        return text(`cancelled=${state.cancelled} pid=${process.pid}`);
      case 'crash':
        process.exit(3);
        break;
      case 'add_tool':
        state.lateTool = true;
        for (const each of servers) await each.sendToolListChanged().catch(() => undefined);
        return text('added late_tool');
      case 'image':
        return {
          content: [
            { type: 'text', text: 'a red dot:' },
            { type: 'image', mimeType: 'image/png', data: Buffer.alloc(1234).toString('base64') },
          ],
        };
      case 'spawn_child': {
        const child = spawn('sleep', ['600'], { stdio: 'ignore' });
        return text(String(child.pid));
      }
      case 'screenshot': {
        const png =
          args.bytes === undefined
            ? PNG_1X1
            : Buffer.concat([PNG_1X1.subarray(0, 33), Buffer.alloc(Number(args.bytes) - 33)]);
        return {
          content: [
            { type: 'text', text: 'the screen:' },
            { type: 'image', mimeType: 'image/png', data: png.toString('base64') },
          ],
        };
      }
      case 'document':
        return {
          content: [
            { type: 'text', text: 'the report:' },
            {
              type: 'resource',
              resource: {
                uri: 'file:///docs/q3%20report.pdf',
                mimeType: 'application/pdf',
                blob: PDF.toString('base64'),
              },
            },
          ],
        };
      case 'odd_media':
        return {
          content: [
            { type: 'image', mimeType: 'image/bmp', data: Buffer.alloc(10).toString('base64') },
            { type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(10).toString('base64') },
            { type: 'resource_link', uri: 'file:///c.md', name: 'c.md' },
            { type: 'resource', resource: { uri: 'file:///d.bin', blob: Buffer.alloc(4).toString('base64') } },
          ],
        };
      case 'late_tool':
        return text('late tool ran');
      case 'huge':
        return text('x'.repeat(Math.round(Number(args.megabytes) * 1024 * 1024)));
    }
    throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
  });
  servers.add(server);
  return server;
}

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw === '' ? undefined : JSON.parse(raw);
}

async function serveHttp(port: number): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const id = request.headers['mcp-session-id'];
    const parsed = request.method === 'POST' ? await body(request) : undefined;
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (id !== undefined || !isInitializeRequest(parsed)) {
        response.writeHead(404).end('unknown session');
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      transport = created;
      await makeServer().connect(created);
    }
    await transport.handleRequest(request, response, parsed);
  });
  http.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
  });
}

const [mode, port] = process.argv.slice(2).filter((arg) => arg !== '--hostile' && arg !== '--media');
if (mode === '--stdio') await makeServer().connect(new StdioServerTransport());
else await serveHttp(Number(port ?? 0));
