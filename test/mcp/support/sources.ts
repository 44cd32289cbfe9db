import { afterEach } from 'vitest';
import type { McpSource } from '../../../src/mcp/mcp-source.js';
import type { HttpTestServer } from './test-server-process.js';

const sources: McpSource[] = [];
const servers: HttpTestServer[] = [];

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** Closes the source after the test. */
export function closeLater<T extends McpSource>(source: T): T {
  sources.push(source);
  return source;
}

/** Stops the server after the test. */
export function stopLater<T extends HttpTestServer>(server: T): T {
  servers.push(server);
  return server;
}
