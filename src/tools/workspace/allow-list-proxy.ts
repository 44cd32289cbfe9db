import { createServer, type IncomingMessage, type OutgoingHttpHeaders, request, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { errorMessage } from '../../core/errors.js';
import { type HostAllowList, portNumber } from './host-allow-list.js';
import { proxyTarget } from './proxy-target.js';

/** An HTTP(S) proxy on a Unix socket that lets through only the hosts of an allow-list. */
export interface AllowListProxy {
  /** What it refused, one line each (`example.org:443 is not on the allowed hosts (…)`), first 20. */
  readonly refused: readonly string[];
  /** Stops listening, destroys every open connection (both ends) and waits for the server to close. */
  close(): Promise<void>;
}

/** Headers that belong to one hop (RFC 9110 §7.6.1), not forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const MAX_REFUSALS = 20;

/** `host:port` of a CONNECT request; undefined when it is not one. */
function authority(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]+):([0-9]+)$/.exec(text);
  const port = match?.[2] === undefined ? undefined : portNumber(match[2]);
  return match?.[1] === undefined || port === undefined ? undefined : { host: match[1], port };
}

function forwardedHeaders(incoming: IncomingMessage, host: string): OutgoingHttpHeaders {
  const named = new Set(
    (incoming.headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_BY_HOP.has(name) && !named.has(name) && value !== undefined) headers[name] = value;
  }
  headers.host = host;
  return headers;
}

/**
 * Starts the proxy on `socketPath`. It takes `CONNECT host:port` (HTTPS and any other TLS or
 * TCP stream) and absolute-form `http://` requests, decides each by `list` (see `proxyTarget`),
 * and answers a refusal with its status and a one-line plain-text body naming the host and the
 * list. It has no cache and no keep-alive upstream. Everything closes with {@link AllowListProxy.close}.
 */
export async function startAllowListProxy(list: HostAllowList, socketPath: string): Promise<AllowListProxy> {
  const sockets = new Set<Socket>();
  const refused: string[] = [];
  let closed = false;
  const track = (socket: Socket): void => {
    if (closed) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const refuse = (why: string): string => {
    if (refused.length < MAX_REFUSALS && !refused.includes(why)) refused.push(why);
    return `agent-harness sandbox: ${why}\n`;
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    void forward(incoming, response);
  });
  server.on('connection', track);
  server.on('clientError', (_error, socket) => socket.destroy());

  const answer = (response: ServerResponse, status: number, body: string): void => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
  };

  async function forward(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(incoming.url ?? '');
    } catch {
      answer(response, 400, refuse(`${JSON.stringify(incoming.url)} is not an absolute http:// URL (a proxy request)`));
      return;
    }
    if (url.protocol !== 'http:') {
      answer(response, 400, refuse(`${url.protocol}// through the proxy: use CONNECT for https`));
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const to = await proxyTarget(list, url.hostname, port);
    if (closed) return;
    if (!to.ok) {
      answer(response, to.status, to.status === 403 ? refuse(to.why) : `agent-harness sandbox: ${to.why}\n`);
      return;
    }
    const upstream = request({
      host: to.address,
      port: to.port,
      method: incoming.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardedHeaders(incoming, url.host),
      agent: false,
    });
    upstream.on('socket', track);
    upstream.on('response', (reply) => {
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      response.writeHead(reply.statusCode ?? 502, reply.statusMessage, headers);
      reply.pipe(response);
    });
    upstream.on('error', (error) =>
      answer(response, 502, `agent-harness sandbox: ${url.host}: ${errorMessage(error)}\n`),
    );
    incoming.pipe(upstream);
  }

  server.on('connect', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    void tunnel(incoming, client, head);
  });

  async function tunnel(incoming: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const fail = (status: number, text: string, body: string): void => {
      client.end(
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    const asked = authority(incoming.url ?? '');
    if (asked === undefined) {
      fail(400, 'Bad Request', `agent-harness sandbox: CONNECT ${JSON.stringify(incoming.url)}: give host:port\n`);
      return;
    }
    const to = await proxyTarget(list, asked.host, asked.port);
    if (closed) return;
    if (!to.ok) {
      const text = to.status === 403 ? 'Forbidden' : to.status === 400 ? 'Bad Request' : 'Bad Gateway';
      fail(to.status, text, to.status === 403 ? refuse(to.why) : `agent-harness sandbox: ${to.why}\n`);
      return;
    }
    const upstream = connect({ host: to.address, port: to.port });
    track(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (error) => {
      if (established) client.destroy();
      else fail(502, 'Bad Gateway', `agent-harness sandbox: ${asked.host}:${asked.port}: ${errorMessage(error)}\n`);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (established) client.destroy();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }),
  };
}
