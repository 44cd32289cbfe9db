import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { errorMessage, HarnessError } from '../core/errors.js';
import type { McpServerOptions } from './mcp-options.js';

const stringMap = z.record(z.string(), z.string());

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  prefix: z.string().optional(),
});

const httpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().min(1),
  headers: stringMap.optional(),
  prefix: z.string().optional(),
});

const configFile = z.object({ mcpServers: z.record(z.string(), z.union([stdioEntry, httpEntry])) });

/**
 * The servers of an MCP configuration in the common `mcpServers` format (as Claude Desktop and
 * other MCP clients write it): `{"mcpServers": {"<name>": {"command", "args"?, "env"?, "cwd"?} |
 * {"url", "headers"?}}}`, each optionally with a `prefix` for its tools' names. `origin` names
 * the file in errors. Throws `invalid_config` naming the entry and the field.
 */
export function parseMcpConfig(json: unknown, origin = 'MCP config'): McpServerOptions[] {
  const parsed = configFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new HarnessError(
      'invalid_config',
      `${origin}: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'invalid'}`,
    );
  }
  return Object.entries(parsed.data.mcpServers).map(([name, entry]): McpServerOptions => {
    if ('command' in entry) {
      const { type: _type, ...rest } = entry;
      return { name, ...rest };
    }
    const { type: _type, ...rest } = entry;
    return { name, ...rest };
  });
}

/** Reads and parses an MCP configuration file (see {@link parseMcpConfig}). */
export async function readMcpConfig(path: string): Promise<McpServerOptions[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessError('invalid_config', `cannot read MCP config ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('invalid_config', `MCP config ${path} is not valid JSON: ${errorMessage(error)}`);
  }
  return parseMcpConfig(json, `MCP config ${path}`);
}
