import { basename } from 'node:path';
import { HarnessError } from '../core/errors.js';

/** Options shared by every kind of MCP server. */
export interface McpCommonOptions {
  /** The server's name in messages and in each tool's `source` (`mcp:<name>`). Default: the name the server reports. */
  readonly name?: string;
  /** Prefix of the tools' names: `prefix_toolname`. Default: names are kept as the server gives them. */
  readonly prefix?: string;
  /** How long connecting (start, handshake, listing the tools) may take. Default 30 s. */
  readonly connectTimeoutMs?: number;
  /** The MCP request's own time limit for one call (the registry's tool timeout applies too). Default 60 s. */
  readonly callTimeoutMs?: number;
  /** Reconnecting after the server was lost: tries per call, and the first pause (doubled each try). Default 2, 250 ms. */
  readonly reconnect?: { readonly attempts?: number; readonly backoffMs?: number };
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioOptions extends McpCommonOptions {
  /** The executable. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the few variables the SDK passes on by default (`HOME`, `PATH`, `USER`, …). */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's working directory. Default: this process's. */
  readonly cwd?: string;
  /** Receives the server's stderr (by default it is only kept, for error messages). */
  readonly onStderr?: (text: string) => void;
  readonly url?: never;
}

/** A server reached over streamable HTTP. */
export interface McpHttpOptions extends McpCommonOptions {
  /** The server's MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string | URL;
  /** Sent with every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly command?: never;
}

/** How to reach one MCP server: a command to run (stdio) or a URL (streamable HTTP). */
export type McpServerOptions = McpStdioOptions | McpHttpOptions;

/** Whether the options start a child process. */
export function isStdio(options: McpServerOptions): options is McpStdioOptions {
  return typeof (options as McpStdioOptions).command === 'string';
}

const MAX_LABEL = 80;

/** A name for messages before the server has said its own: the given name, the command line or the URL. */
export function serverLabel(options: McpServerOptions): string {
  if (options.name !== undefined) return options.name;
  if (!isStdio(options)) return String(options.url);
  const line = [basename(options.command), ...(options.args ?? [])].join(' ');
  return line.length > MAX_LABEL ? `${line.slice(0, MAX_LABEL - 1)}…` : line;
}

const PREFIX = /^[A-Za-z0-9_-]{1,40}$/;

/** Refuses options that cannot work, naming the field. */
export function checkOptions(options: McpServerOptions): void {
  const given = options as { command?: unknown; url?: unknown };
  const hasCommand = given.command !== undefined;
  const hasUrl = given.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new HarnessError('invalid_argument', 'an MCP server needs exactly one of `command` (stdio) or `url` (HTTP)');
  }
  if (hasCommand && (typeof given.command !== 'string' || given.command.trim() === '')) {
    throw new HarnessError(
      'invalid_argument',
      `MCP server command must be a non-empty string, got ${String(given.command)}`,
    );
  }
  if (hasUrl) {
    let url: URL;
    try {
      url = new URL(String(given.url));
    } catch {
      throw new HarnessError('invalid_argument', `MCP server url '${String(given.url)}' is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HarnessError('invalid_argument', `MCP server url '${String(given.url)}' must be http: or https:`);
    }
  }
  if (options.prefix !== undefined && !PREFIX.test(options.prefix)) {
    throw new HarnessError('invalid_argument', `MCP prefix '${options.prefix}' must match ${PREFIX}`);
  }
}
