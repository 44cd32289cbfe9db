import { HarnessError } from '../core/errors.js';

/** The parts of `@modelcontextprotocol/sdk` the MCP sources use, loaded on first use. */
export interface McpSdk {
  readonly Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  readonly StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  readonly getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment;
  readonly ReadBuffer: typeof import('@modelcontextprotocol/sdk/shared/stdio.js').ReadBuffer;
  readonly serializeMessage: typeof import('@modelcontextprotocol/sdk/shared/stdio.js').serializeMessage;
  readonly McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError;
  readonly ErrorCode: typeof import('@modelcontextprotocol/sdk/types.js').ErrorCode;
  readonly ToolListChangedNotificationSchema: typeof import('@modelcontextprotocol/sdk/types.js').ToolListChangedNotificationSchema;
}

/** The package to install, as the error says it. */
export const MCP_SDK_PACKAGE = '@modelcontextprotocol/sdk';

let loading: Promise<McpSdk> | undefined;

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(MCP_SDK_PACKAGE);
}

async function load(): Promise<McpSdk> {
  const [client, http, stdio, codec, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    ReadBuffer: codec.ReadBuffer,
    serializeMessage: codec.serializeMessage,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}

function missing(error: unknown): never {
  if (!isMissingModule(error)) throw error;
  throw new HarnessError(
    'missing_dependency',
    `MCP servers need the optional package '${MCP_SDK_PACKAGE}', which is not installed; run: npm i ${MCP_SDK_PACKAGE}`,
    { cause: error },
  );
}

/**
 * Loads the MCP SDK once, so that the library works without it until an MCP server is used.
 * A missing package is a `missing_dependency` {@link HarnessError} that says what to install.
 * `importer` replaces the import (tests); it is not cached.
 */
export function loadMcpSdk(importer?: () => Promise<McpSdk>): Promise<McpSdk> {
  if (importer !== undefined) return importer().catch(missing);
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    return missing(error);
  });
  return loading;
}
