import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InspectorFeed } from './inspector-feed.js';
import { loadPageAssets, type PageAsset } from './page-assets.js';

/** Options of {@link startInspector}. */
export interface InspectorServerOptions {
  /** Interface to bind; `127.0.0.1` by default (the page shows prompts and tool output). */
  readonly host?: string;
  /** Port; 0 (the default) picks a free one. */
  readonly port?: number;
}

/** A running inspector server. */
export interface InspectorServer {
  /** The page's address, e.g. `http://127.0.0.1:43121/`. */
  readonly url: string;
  /** Stops serving and ends open event streams. */
  close(): Promise<void>;
}

/** Everything comes from this server; no inline script, no other origin. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  response.end(body);
}

const ANY_ADDRESS = new Set(['0.0.0.0', '::']);

/**
 * Host headers the page may be addressed by: loopback names and the bound host. Refuses other
 * names (DNS rebinding), unless the server was bound to every interface on purpose.
 */
function hostCheck(boundHost: string): (host: string | undefined, port: number) => boolean {
  if (ANY_ADDRESS.has(boundHost)) return () => true;
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  return (host, port) =>
    host !== undefined &&
    [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${bound}:${port}`].includes(host.toLowerCase());
}

function streamEvents(feed: InspectorFeed, request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
  const write = (event: string, data: unknown): void => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  write('snapshot', feed.snapshot());
  const unsubscribe = feed.subscribe((steps) => write('steps', steps));
  request.on('close', unsubscribe);
}

interface Routes {
  readonly feed: InspectorFeed;
  readonly assets: Map<string, PageAsset>;
  readonly allowedHost: (host: string | undefined, port: number) => boolean;
  readonly port: () => number;
}

function handle({
  feed,
  assets,
  allowedHost,
  port,
}: Routes): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    if (!allowedHost(request.headers.host, port())) {
      send(response, 403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/api/events') return streamEvents(feed, request, response);
    if (path === '/api/snapshot') return send(response, 200, 'application/json', JSON.stringify(feed.snapshot()));
    const asset = assets.get(path);
    if (asset === undefined) return send(response, 404, 'text/plain; charset=utf-8', `not found: ${path}\n`);
    send(response, 200, asset.contentType, asset.body);
  };
}

/**
 * Serves the inspector page for a feed: the page, `/api/snapshot` (JSON) and `/api/events`
 * (Server-Sent Events: one `snapshot`, then `steps` as they change). Binds 127.0.0.1 by default.
 */
export async function startInspector(
  feed: InspectorFeed,
  options: InspectorServerOptions = {},
): Promise<InspectorServer> {
  const host = options.host ?? '127.0.0.1';
  const assets = await loadPageAssets();
  let port = 0;
  const server = createServer(handle({ feed, assets, allowedHost: hostCheck(host), port: () => port }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
