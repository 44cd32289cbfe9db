import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { HarnessError } from '../core/errors.js';
import { excerpt, printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';
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

/**
 * Registers `uri` (a worker, or the load balancer in front of several) with Restate's admin API
 * at `adminUrl`, so that Restate sends it the agent's invocations. Registering the same URI
 * again is harmless; `force` replaces a registration whose services changed.
 */
export async function registerDeployment(
  adminUrl: string,
  uri: string,
  options: { readonly force?: boolean } = {},
): Promise<void> {
  let response: Response;
  const admin = adminUrl.replace(/\/$/, '');
  try {
    response = await fetch(`${admin}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri, force: options.force ?? false }),
    });
  } catch (error) {
    throw new HarnessError(
      'restate_error',
      `cannot reach Restate's admin API at ${redactPassword(admin)}: ${printableLine(String(error))}`,
      {
        cause: error,
      },
    );
  }
  if (!response.ok) {
    throw new HarnessError(
      'restate_error',
      `Restate's admin API refused to register ${printableLine(uri)}: ${response.status} ${excerpt(printableLine(await response.text()), 500)}`,
    );
  }
}
