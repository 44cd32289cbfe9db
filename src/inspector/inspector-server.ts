import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { nestedDeeperThan } from '../core/json-depth.js';
import { printableLine } from '../core/printable.js';
import { type ForkHandler, handleFork, newForkToken } from './fork-route.js';
import type { InspectorSnapshot, StepListener } from './inspector-feed.js';
import { loadPageAssets, type PageAsset } from './page-assets.js';
import { acceptWebSocket, MessageRejected } from './websocket-server.js';

/** What the server shows: an `InspectorFeed` (journal or agent) or an `InspectionFeed` (WebSocket). */
export interface InspectorSource {
  /** The graph and every step so far. */
  snapshot(): InspectorSnapshot;
  /** Calls `listener` with the steps each change created or updated. */
  subscribe(listener: StepListener): () => void;
  /** Calls `listener` with a whole new snapshot (the machine changed). */
  subscribeSnapshots?(listener: (snapshot: InspectorSnapshot) => void): () => void;
  /** Takes messages from WebSocket clients; without it, WebSocket upgrades are refused. */
  receive?(message: unknown): void;
}

/** Options of {@link startInspector}. */
export interface InspectorServerOptions {
  /** Interface to bind; `127.0.0.1` by default (the page shows prompts and tool output). */
  readonly host?: string;
  /** Port; 0 (the default) picks a free one. */
  readonly port?: number;
  /**
   * More host names the page may be addressed by (besides loopback names, IP addresses and the
   * bound host), e.g. this machine's name on the network. Others get 403 (DNS rebinding).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Told about WebSocket clients the server closed (a message too big, too deeply nested, not
   * JSON, or one the feed could not take), as one line already filtered for a terminal.
   */
  readonly onWarning?: (message: string) => void;
  /**
   * Offers "fork here" on every step of a journal's timeline: the page posts the step's entry
   * count to `POST /api/fork`, served to this machine only, to pages of this server holding the
   * token of their snapshot. Without it there is no such endpoint (404).
   */
  readonly fork?: ForkHandler;
}

/** The snapshot the page gets: the feed's, plus the token of "fork here" when the server offers it. */
export type ServedSnapshot = InspectorSnapshot & { readonly fork?: { readonly token: string } };

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

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** Whether the server bound to `host` is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Host headers the page may be addressed by, whatever interface it is bound to: loopback
 * names, IP addresses (a browser sends an IP only when it was given one, so no DNS rebinding),
 * the bound host, and the names in `allowedHosts`; always with the server's port. Other names
 * are refused: a page of another site whose name was made to resolve to this machine (DNS
 * rebinding) would otherwise read everything the inspector serves.
 */
function hostCheck(
  boundHost: string,
  allowedHosts: readonly string[],
): (host: string | undefined, port: number) => boolean {
  const names = new Set([
    ...LOOPBACK_NAMES,
    boundHost.includes(':') ? `[${boundHost}]` : boundHost,
    ...allowedHosts.map((name) => name.toLowerCase()),
  ]);
  return (header, port) => {
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(header?.toLowerCase() ?? '');
    const [, name = '', given] = match ?? [];
    if (name === '' || Number(given ?? 80) !== port) return false;
    return names.has(name) || IPV4.test(name) || IPV6.test(name);
  };
}

/**
 * Whether a page's Origin is this server itself (or a loopback name of it). Checked apart from
 * the Host check, so that binding every interface does not let other sites' pages connect.
 */
function sameOrigin(origin: string | undefined, host: string | undefined, port: number): boolean {
  if (origin === undefined) return true; // not a browser page: Node clients send no Origin
  const from = origin.replace(/^https?:\/\//, '').toLowerCase();
  return from === host?.toLowerCase() || [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(from);
}

function streamEvents(routes: Routes, request: IncomingMessage, response: ServerResponse): void {
  const { feed, served } = routes;
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
  const write = (event: string, data: unknown): void => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  write('snapshot', served(feed.snapshot()));
  const unsubscribe = feed.subscribe((steps) => write('steps', steps));
  const unsubscribeSnapshots = feed.subscribeSnapshots?.((snapshot) => write('snapshot', served(snapshot)));
  request.on('close', () => {
    unsubscribe();
    unsubscribeSnapshots?.();
  });
}

/** Deepest nesting of an inspection message: `@statelyai/inspect` serialises 10 levels by default. */
export const MAX_MESSAGE_DEPTH = 128;

interface Routes {
  readonly feed: InspectorSource;
  readonly warn: (message: string) => void;
  readonly assets: Map<string, PageAsset>;
  readonly allowedHost: (host: string | undefined, port: number) => boolean;
  readonly port: () => number;
  /** The snapshot as served (with the fork token when forking is offered). */
  readonly served: (snapshot: InspectorSnapshot) => ServedSnapshot;
  readonly fork: { readonly handler: ForkHandler; readonly token: string } | undefined;
}

function handle(routes: Routes): (request: IncomingMessage, response: ServerResponse) => void {
  const { feed, assets, allowedHost, port, served, fork } = routes;
  return (request, response) => {
    if (!allowedHost(request.headers.host, port())) {
      send(response, 403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header\n');
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/api/fork' && fork !== undefined) {
      const guard = {
        token: fork.token,
        sameOrigin: (origin: string | undefined) => sameOrigin(origin, request.headers.host, port()),
      };
      handleFork(request, response, fork.handler, guard, SECURITY_HEADERS).catch(() => response.destroy());
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    if (path === '/api/events') return streamEvents(routes, request, response);
    if (path === '/api/snapshot')
      return send(response, 200, 'application/json', JSON.stringify(served(feed.snapshot())));
    const asset = assets.get(path);
    if (asset === undefined) return send(response, 404, 'text/plain; charset=utf-8', `not found: ${path}\n`);
    send(response, 200, asset.contentType, asset.body);
  };
}

/** Parses one inspection message; refuses one nested too deeply or not JSON. */
function parseMessage(text: string): unknown {
  if (nestedDeeperThan(text, MAX_MESSAGE_DEPTH)) {
    throw new MessageRejected(1008, `message nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new MessageRejected(1007, 'message is not JSON');
  }
}

/** Accepts `@statelyai/inspect` WebSocket clients (same host checks; no cross-site pages). */
function upgrade({ feed, allowedHost, port, warn }: Routes): (request: IncomingMessage, socket: Duplex) => void {
  return (request, socket) => {
    const sameSite = sameOrigin(request.headers.origin, request.headers.host, port());
    if (feed.receive === undefined || !allowedHost(request.headers.host, port()) || !sameSite) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    const receive = feed.receive.bind(feed);
    acceptWebSocket(request, socket, {
      onText: (text) => receive(parseMessage(text)),
      onRefused: (code, why) => warn(printableLine(`closed a WebSocket client (${code}): ${why}`)),
    });
  };
}

/**
 * Serves the inspector page for a feed: the page, `/api/snapshot` (JSON) and `/api/events`
 * (Server-Sent Events: one `snapshot`, then `steps` as they change), and `POST /api/fork` when
 * `options.fork` is given. Binds 127.0.0.1 by default.
 */
export async function startInspector(
  feed: InspectorSource,
  options: InspectorServerOptions = {},
): Promise<InspectorServer> {
  const host = options.host ?? '127.0.0.1';
  const assets = await loadPageAssets();
  let port = 0;
  const warn = options.onWarning ?? (() => {});
  const fork = options.fork === undefined ? undefined : { handler: options.fork, token: newForkToken() };
  const routes: Routes = {
    feed,
    assets,
    warn,
    allowedHost: hostCheck(host, options.allowedHosts ?? []),
    port: () => port,
    served: (snapshot) => (fork === undefined ? snapshot : { ...snapshot, fork: { token: fork.token } }),
    fork,
  };
  const server = createServer(handle(routes));
  const upgraded = new Set<Duplex>();
  const onUpgrade = upgrade(routes);
  server.on('upgrade', (request: IncomingMessage, socket: Socket) => {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    onUpgrade(request, socket);
  });
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
        for (const socket of upgraded) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
