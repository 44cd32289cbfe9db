import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { type AgentObjectOptions, agentObject } from './agent-object.js';

/** Options of {@link serveWorker}. */
export interface WorkerOptions extends AgentObjectOptions {
  /** The port to listen on (0: any free port). 9080 by default. */
  readonly port?: number;
  /** The interface to listen on; `127.0.0.1` by default. */
  readonly host?: string;
}

/** A running worker: serves the agent's virtual object to Restate. */
export interface Worker {
  /** Its URL (`http://127.0.0.1:9080`), to register with Restate. */
  readonly url: string;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves the agent's virtual object over HTTP/2 for Restate. Several workers behind one URL (a
 * load balancer) form one deployment: Restate sends each execution to whichever answers.
 */
export async function serveWorker(options: WorkerOptions): Promise<Worker> {
  const handler = restate.createEndpointHandler({ services: [agentObject(options)] });
  const server: Http2Server = createServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<import('node:http2').Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
