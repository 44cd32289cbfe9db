import { loadMcpSdk } from './load-mcp-sdk.js';
import { McpConnection } from './mcp-connection.js';
import { checkOptions, type McpServerOptions, serverLabel } from './mcp-options.js';
import { McpSource } from './mcp-source.js';
import { findNameClash, nameClashError } from './name-clash.js';

/**
 * Connects to an MCP server and lists its tools:
 *
 * ```ts
 * const files = await connectMcp({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * registry.register(...files.tools);
 * // … run the agent …
 * await files.close();
 * ```
 *
 * `{ command, args?, env?, cwd? }` starts the server as a child process (stdio);
 * `{ url, headers? }` reaches it over streamable HTTP. A server that cannot be started or
 * reached is one `mcp_error` {@link HarnessError} naming it and the cause, and so is a list with
 * two tools that become one name (`get.item`, `get_item`); options that cannot
 * work are `invalid_argument`; a missing `@modelcontextprotocol/sdk` is `missing_dependency`.
 */
export async function connectMcp(options: McpServerOptions): Promise<McpSource> {
  checkOptions(options);
  const sdk = await loadMcpSdk();
  let source: McpSource | undefined;
  const connection = new McpConnection(sdk, options, serverLabel(options), {
    toolsListed: (tools) => source?.update(tools),
  });
  const { serverName, tools } = await connection.start();
  const name = options.name ?? serverName ?? connection.name;
  connection.name = name;
  const clash = findNameClash(tools, options.prefix);
  if (clash !== undefined) {
    await connection.close();
    throw nameClashError(name, clash);
  }
  source = new McpSource(name, connection, options.prefix, tools);
  return source;
}

/**
 * Connects to several servers at once. If one fails, those already connected are closed and
 * the first failure is thrown: nothing is left running.
 */
export async function connectMcpServers(servers: readonly McpServerOptions[]): Promise<McpSource[]> {
  const settled = await Promise.allSettled(servers.map((options) => connectMcp(options)));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed === undefined) return settled.map((outcome) => (outcome as PromiseFulfilledResult<McpSource>).value);
  await closeAll(settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : [])));
  throw failed.reason;
}

/** Closes every source (errors of one do not stop the others). */
export async function closeAll(sources: readonly McpSource[]): Promise<void> {
  await Promise.allSettled(sources.map((source) => source.close()));
}
