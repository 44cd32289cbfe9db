/**
 * MCP tool sources (`agent-harness/mcp`): tools from Model Context Protocol servers, their
 * options and config files. The SDK (`@modelcontextprotocol/sdk`) loads on first connect.
 */

export { closeAll, connectMcp, connectMcpServers } from './connect-mcp.js';
export { parseMcpConfig, readMcpConfig } from './mcp-config.js';
export type { McpCommonOptions, McpHttpOptions, McpServerOptions, McpStdioOptions } from './mcp-options.js';
export { McpSource, type ToolsChangedListener, type ToolsRefresh } from './mcp-source.js';
export { harnessToolName, mcpToolKind } from './mcp-tool.js';
export type { McpToolInfo } from './mcp-tool-info.js';
