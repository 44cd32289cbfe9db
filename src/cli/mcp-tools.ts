import { HarnessError } from '../core/errors.js';
import { closeAll, connectMcpServers } from '../mcp/connect-mcp.js';
import type { McpSource } from '../mcp/mcp-source.js';
import type { ToolRegistry } from '../tools/registry.js';
import { hasMcp, type McpFlags, mcpServers } from './mcp-flags.js';

/** Connects to every server the flags name; on any failure, those connected are closed again. */
export async function connectFlagged(flags: McpFlags): Promise<McpSource[]> {
  return hasMcp(flags) ? connectMcpServers(await mcpServers(flags)) : [];
}

/**
 * Connects the servers the flags name and registers their tools. A name clash is an
 * `invalid_config` error that says how to avoid it; nothing is left running after a failure.
 * The caller closes the returned sources when the run ends.
 */
export async function addMcpTools(flags: McpFlags, registry: ToolRegistry): Promise<McpSource[]> {
  const sources = await connectFlagged(flags);
  try {
    for (const source of sources) {
      try {
        registry.register(...source.tools);
      } catch (error) {
        if (!HarnessError.isInstance(error)) throw error;
        throw new HarnessError(
          'invalid_config',
          `MCP server '${source.name}': ${error.message}; give the server a "prefix" in --mcp-config`,
          { cause: error },
        );
      }
    }
  } catch (error) {
    await closeAll(sources);
    throw error;
  }
  return sources;
}
