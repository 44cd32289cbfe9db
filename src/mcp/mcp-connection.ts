import { errorMessage, HarnessError } from '../core/errors.js';
import type { JsonObject } from '../core/messages.js';
import { ToolResult } from '../core/tool-result.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { McpServerOptions } from './mcp-options.js';
import { type McpCallResult, toToolResult } from './mcp-result.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { type Link, openLink } from './open-link.js';
import { withoutControls } from './output-tail.js';

/** What a {@link McpConnection} tells its source. */
export interface ConnectionEvents {
  /** A fresh list of the server's tools: after `list_changed`, or after reconnecting. */
  toolsListed(tools: readonly McpToolInfo[]): void;
}

const DEFAULT_ATTEMPTS = 2;
const DEFAULT_BACKOFF_MS = 250;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The connection behind one MCP source: calls tools, turns every failure into an error
 * {@link ToolResult}, and after the server is lost reconnects (stdio: starts the command again)
 * on the next call, a bounded number of times with a growing pause.
 */
export class McpConnection {
  /** The server's name, as messages say it. */
  name: string;
  private link: Link | undefined;
  private reopening: Promise<Link> | undefined;
  /** How the last link was lost, while there is none. */
  private lost: string | undefined;
  private closed = false;
  private readonly closing = new Set<Promise<void>>();
  /** Re-lists in flight (after `list_changed` or a reconnect), for {@link McpConnection.listed}. */
  private readonly relisting = new Set<Promise<void>>();

  constructor(
    private readonly sdk: McpSdk,
    private readonly options: McpServerOptions,
    label: string,
    private readonly events: ConnectionEvents,
  ) {
    this.name = label;
  }

  /** The stdio server's current process id (it changes when the server is started again). */
  get pid(): number | undefined {
    return this.link?.pid;
  }

  /** Connects for the first time and lists the tools; throws the start-up `mcp_error`. */
  async start(): Promise<{ serverName: string | undefined; tools: McpToolInfo[] }> {
    const link = await this.open();
    try {
      return { serverName: link.serverName, tools: await link.listTools() };
    } catch (error) {
      await link.close();
      this.link = undefined;
      const why = withoutControls(errorMessage(error));
      throw new HarnessError('mcp_error', `MCP server '${this.name}' failed to list its tools: ${why}`, {
        cause: error,
      });
    }
  }

  /** Calls a tool. Never throws: an MCP error, a lost server or a cancelled call is an error result. */
  async call(tool: string, args: JsonObject, signal: AbortSignal): Promise<ToolResult> {
    if (this.closed) return ToolResult.error(`MCP server '${this.name}' was closed`);
    let link: Link;
    try {
      link = await this.ready(signal);
    } catch (error) {
      return ToolResult.error(errorMessage(error));
    }
    const release = link.hold();
    // The SDK adds an abort listener to the signal of every request and never removes it: it is
    // given a signal of this call's own, which our signal aborts, so a long-lived signal (one
    // shared by many calls) does not collect a listener per call.
    const own = new AbortController();
    const relay = (): void => own.abort(signal.reason);
    if (signal.aborted) relay();
    else signal.addEventListener('abort', relay, { once: true });
    try {
      const result = await link.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: own.signal,
        timeout: this.options.callTimeoutMs,
      });
      return toToolResult(result as McpCallResult);
    } catch (error) {
      return this.failure(link, tool, error, signal);
    } finally {
      signal.removeEventListener('abort', relay);
      release();
    }
  }

  /** Ends the connection and stops the server; later calls are error results. */
  async close(): Promise<void> {
    this.closed = true;
    const link = this.link ?? (await this.reopening?.catch(() => undefined));
    this.link = undefined;
    if (link !== undefined) this.closing.add(link.close());
    await Promise.all(this.closing);
  }

  private failure(link: Link, tool: string, error: unknown, signal: AbortSignal): ToolResult {
    if (signal.aborted) {
      // The registry has answered already (timeout or abort); the server was sent a cancellation.
      return ToolResult.error(`MCP call '${tool}' cancelled: ${errorMessage(signal.reason)}`);
    }
    const { McpError, ErrorCode } = this.sdk;
    const message = withoutControls(errorMessage(error));
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return ToolResult.error(`MCP server '${this.name}' did not answer '${tool}' in time: ${message}`);
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return ToolResult.error(`MCP server '${this.name}' answered '${tool}' with a protocol error: ${message}`);
    }
    // Connection closed, or a transport failure (refused, reset): the server is gone.
    const why = this.link === link ? message : (this.lost ?? message);
    this.drop(link, why);
    return ToolResult.error(`MCP server '${this.name}' was lost during '${tool}': ${why}; the next call reconnects`);
  }

  /** The live link, or a new one (bounded attempts, growing pause) after the last was lost. */
  private ready(signal: AbortSignal): Promise<Link> {
    if (this.link !== undefined) return Promise.resolve(this.link);
    this.reopening ??= this.reopen(signal).finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  private async reopen(signal: AbortSignal): Promise<Link> {
    const attempts = Math.max(1, this.options.reconnect?.attempts ?? DEFAULT_ATTEMPTS);
    const backoff = this.options.reconnect?.backoffMs ?? DEFAULT_BACKOFF_MS;
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await pause(backoff * 2 ** (attempt - 2), signal);
      if (signal.aborted || this.closed) break;
      try {
        const link = await this.open();
        this.lost = undefined;
        void this.relist(link);
        return link;
      } catch (error) {
        last = error;
      }
    }
    const cause = last === undefined ? 'cancelled' : errorMessage(last);
    const tries = attempts === 1 ? 'once' : `${attempts} times`;
    throw new Error(
      `MCP server '${this.name}' is down (${this.lost ?? 'lost'}); reconnecting failed ${tries}: ${cause}`,
    );
  }

  private async open(): Promise<Link> {
    const link = await openLink(this.sdk, this.options, this.name, {
      lost: (why) => this.drop(link, why),
      toolsChanged: () => void this.relist(link),
    });
    if (this.closed) {
      await link.close();
      throw new Error(`MCP server '${this.name}' was closed`);
    }
    this.link = link;
    return link;
  }

  /**
   * Settles once every re-list already asked for has ended (never rejects): a `list_changed`
   * that arrived before a call's result is applied before the next model request.
   */
  async listed(): Promise<void> {
    while (this.relisting.size > 0) await Promise.all([...this.relisting]);
  }

  private relist(link: Link): Promise<void> {
    const relisting = this.listAgain(link).finally(() => this.relisting.delete(relisting));
    this.relisting.add(relisting);
    return relisting;
  }

  private async listAgain(link: Link): Promise<void> {
    try {
      const tools = await link.listTools();
      if (this.link === link) this.events.toolsListed(tools);
    } catch {
      // The list stays as it was; a lost server is noticed by the next call.
    }
  }

  private drop(link: Link, why: string): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.lost = why;
    const closing = link.close().finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }
}
