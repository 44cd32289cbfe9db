import { createConnection, createServer, type Socket } from 'node:net';
import { freePort } from './free-port.js';

/**
 * A TCP load balancer on 127.0.0.1, as in front of several workers: each new connection goes to
 * the next backend that accepts it. Registered with Restate as one deployment.
 */
export interface TcpBalancer {
  readonly url: string;
  close(): Promise<void>;
}

/** Balances connections over `backends` (ports on 127.0.0.1), skipping ones that refuse. */
export async function startTcpBalancer(backends: () => readonly number[]): Promise<TcpBalancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const connect = (client: Socket, tries: number): void => {
    const ports = backends();
    if (tries >= ports.length || ports.length === 0) {
      client.destroy();
      return;
    }
    const port = ports[next++ % ports.length] as number;
    const upstream = createConnection({ host: '127.0.0.1', port, noDelay: true });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
      client.on('error', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (connected) client.destroy();
      else connect(client, tries + 1);
    });
  };
  // No Nagle on either leg: small HTTP/2 frames would otherwise wait for the peer's delayed ACK.
  const server = createServer({ pauseOnConnect: true, noDelay: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    connect(client, 0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
