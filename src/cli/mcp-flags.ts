import { resolve } from 'node:path';
import { readMcpConfig } from '../mcp/mcp-config.js';
import type { McpServerOptions } from '../mcp/mcp-options.js';
import { splitCommand } from './split-command.js';
import { UsageError } from './usage-error.js';

/** The `parseArgs` options of the MCP flags, shared by `run` and `mcp list`. */
export const MCP_FLAGS = {
  mcp: { type: 'string', multiple: true },
  'mcp-url': { type: 'string', multiple: true },
  'mcp-config': { type: 'string' },
} as const;

/** Help lines of the MCP flags. */
export const MCP_HELP = `  --mcp "CMD ARGS"  add the tools of an MCP server started with this command (stdio; quotes
                   as in a shell); repeatable
  --mcp-url URL    add the tools of an MCP server over streamable HTTP; repeatable
  --mcp-config F   add the servers of an {"mcpServers": {…}} file (command/args/env or url/headers,
                   and an optional "prefix" for a server's tool names)
`;

/** The MCP servers the command line asked for, not yet read or connected. */
export interface McpFlags {
  /** Each `--mcp`, split into words. */
  readonly commands: readonly (readonly string[])[];
  readonly urls: readonly string[];
  /** `--mcp-config`, absolute. */
  readonly config: string | undefined;
}

/** Reads the MCP flags out of `parseArgs` values; throws {@link UsageError} for an unusable one. */
export function mcpFlags(values: { mcp?: string[]; 'mcp-url'?: string[]; 'mcp-config'?: string }): McpFlags {
  const urls = values['mcp-url'] ?? [];
  for (const url of urls) {
    if (!URL.canParse(url)) throw new UsageError(`--mcp-url must be a URL, got '${url}'`);
  }
  return {
    commands: (values.mcp ?? []).map((line) => splitCommand(line, '--mcp')),
    urls,
    config: values['mcp-config'] === undefined ? undefined : resolve(values['mcp-config']),
  };
}

/** Whether any MCP server was asked for. */
export function hasMcp(flags: McpFlags): boolean {
  return flags.commands.length > 0 || flags.urls.length > 0 || flags.config !== undefined;
}

/** The servers to connect to: the config file's, then each `--mcp`, then each `--mcp-url`. */
export async function mcpServers(flags: McpFlags): Promise<McpServerOptions[]> {
  const fromFile = flags.config === undefined ? [] : await readMcpConfig(flags.config);
  return [
    ...fromFile,
    ...flags.commands.map(([command, ...args]) => ({ command: command as string, args })),
    ...flags.urls.map((url) => ({ url })),
  ];
}
