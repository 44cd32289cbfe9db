import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { isStdio, type McpServerOptions } from './mcp-options.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { withoutControls } from './output-tail.js';
import { ProcessTransport } from './process-transport.js';

/** Default time limit of connecting to a server. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** How long closing an HTTP session may wait for the server to acknowledge. */
const TERMINATE_MS = 1000;
/** A bound on `nextCursor` pages, against a server that never stops paging. */
const MAX_PAGES = 100;

/** What a {@link Link} reports to its owner. */
export interface LinkEvents {
  /** The server is gone (process ended, stream broken); `why` says how. */
  lost(why: string): void;
  /** The server sent `notifications/tools/list_changed`. */
  toolsChanged(): void;
}

/** One live connection to a server: the SDK client and its transport. */
export interface Link {
  readonly client: Client;
  /** The server's own name, from the handshake. */
  readonly serverName: string | undefined;
  /** The stdio server's process id. */
  readonly pid: number | undefined;
  /** Keeps this process alive while a request is in flight; returns the release. */
  hold(): () => void;
  /** Every tool, over all pages. */
  listTools(): Promise<McpToolInfo[]>;
  /** Ends the session and stops the server process (if any). */
  close(): Promise<void>;
}

const NO_HOLD = () => () => undefined;

/** Why a start-up failed, in words a user can act on. */
function startFailure(
  sdk: McpSdk,
  label: string,
  options: McpServerOptions,
  error: unknown,
  transport: unknown,
  timeout: number,
): HarnessError {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  let why: string;
  if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
    why = `no answer to the MCP handshake within ${timeout} ms`;
    const tail = (transport as Partial<ProcessTransport>).stderr?.lastLines() ?? '';
    if (tail !== '') why += `; its stderr: ${tail}`;
  } else if (isStdio(options)) {
    const proc = transport as ProcessTransport;
    if (code === 'ENOENT') why = `command '${options.command}' not found (ENOENT)`;
    else if (code === 'EACCES') why = `command '${options.command}' is not executable (EACCES)`;
    else if (proc.exitDescription !== undefined) why = `the server ${proc.exitDescription} during start-up`;
    else why = errorMessage(error);
    const tail = proc.stderr.lastLines();
    if (tail !== '') why += `; its stderr: ${tail}`;
  } else {
    const causeText = typeof cause?.code === 'string' ? cause.code : cause?.message;
    const detail = typeof causeText === 'string' ? `${errorMessage(error)} (${causeText})` : errorMessage(error);
    why = `could not connect to ${String(options.url)}: ${withoutControls(detail)}`;
  }
  return new HarnessError('mcp_error', `MCP server '${label}' failed to start: ${why}`, { cause: error });
}

function transportFor(
  sdk: McpSdk,
  options: McpServerOptions,
): ProcessTransport | InstanceType<McpSdk['StreamableHTTPClientTransport']> {
  if (isStdio(options)) {
    return new ProcessTransport(
      {
        command: options.command,
        args: options.args ?? [],
        env: { ...sdk.getDefaultEnvironment(), ...options.env },
        cwd: options.cwd,
        onStderr: options.onStderr,
      },
      sdk,
    );
  }
  const headers = options.headers === undefined ? undefined : { ...options.headers };
  return new sdk.StreamableHTTPClientTransport(new URL(String(options.url)), { requestInit: { headers } });
}

/** A broken HTTP stream: the server went away (the SDK reports it as an error, not a close). */
function isStreamLoss(error: Error): boolean {
  return /SSE stream disconnected|fetch failed|ECONNREFUSED|ECONNRESET/.test(error.message);
}

/**
 * Starts (stdio) or reaches (HTTP) a server and completes the MCP handshake. A failure is one
 * `mcp_error` {@link HarnessError} naming the server and the cause (ENOENT, the exit code and
 * the end of its stderr, the refused connection), with nothing left running.
 */
export async function openLink(
  sdk: McpSdk,
  options: McpServerOptions,
  label: string,
  events: LinkEvents,
): Promise<Link> {
  const transport = transportFor(sdk, options);
  const proc = transport instanceof ProcessTransport ? transport : undefined;
  const client = new sdk.Client({ name: 'agent-harness', version: '0.1.0' }, { capabilities: {} });
  let ready = false;
  let closing = false;
  let lostReported = false;
  const lose = (why: string): void => {
    if (!ready || closing || lostReported) return;
    lostReported = true;
    events.lost(why);
  };
  client.onclose = () => {
    const ended = proc?.exitDescription ?? 'closed the connection';
    const tail = proc?.stderr.lastLines() ?? '';
    lose(tail === '' ? `the server ${ended}` : `the server ${ended}; its stderr: ${tail}`);
  };
  client.onerror = (error) => {
    if (proc === undefined && isStreamLoss(error)) lose(`the connection broke: ${withoutControls(error.message)}`);
  };
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => events.toolsChanged());
  const timeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const hold = proc === undefined ? NO_HOLD : () => proc.hold();
  const close = async (): Promise<void> => {
    closing = true;
    if (proc === undefined && 'terminateSession' in transport) {
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, TERMINATE_MS).unref()),
      ]);
    }
    await client.close().catch(() => undefined);
    await proc?.close();
  };
  const release = hold();
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    // Described before closing: closing kills the process, which would become the reason.
    const failure = startFailure(sdk, label, options, error, transport, timeout);
    await close();
    throw failure;
  } finally {
    release();
  }
  ready = true;
  return {
    client,
    serverName: client.getServerVersion()?.name,
    pid: proc?.pid,
    hold,
    close,
    async listTools() {
      const done = hold();
      try {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
          tools.push(...(listed.tools as unknown as McpToolInfo[]));
          cursor = listed.nextCursor;
          if (cursor === undefined) break;
        }
        return tools;
      } finally {
        done();
      }
    },
  };
}
