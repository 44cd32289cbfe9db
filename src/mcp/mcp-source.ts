import { HarnessError } from '../core/errors.js';
import type { AnyTool, ToolRegistry } from '../tools/registry.js';
import { type McpCall, mcpTool, toolFingerprint } from './mcp-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { findNameClash, type NameClash, nameClashError } from './name-clash.js';

/** What {@link McpSource.refresh} changed in a registry. */
export interface ToolsRefresh {
  /** Names registered (new tools, or tools whose description changed). */
  readonly added: readonly string[];
  /** Names unregistered (gone, or replaced). */
  readonly removed: readonly string[];
}

/** What a source needs from its connection (kept narrow so that its types need no SDK). */
export interface McpSourceConnection {
  /** Calls a tool by the server's name for it; never rejects. */
  readonly call: McpCall;
  /** The stdio server's process id. */
  readonly pid: number | undefined;
  /** Settles once the re-lists already asked for have ended; never rejects. */
  listed?(): Promise<void>;
  close(): Promise<void>;
}

/** Listener of {@link McpSource.onToolsChanged}. */
export type ToolsChangedListener = (tools: readonly AnyTool[]) => void;

/**
 * The tools of one MCP server, ready for `registry.register(...source.tools)`. When the server
 * changes its list (`notifications/tools/list_changed`, or a different list after
 * reconnecting), `tools` is updated and listeners are told; a registry changes only when
 * {@link McpSource.refresh} is called, which the agent does between turns, never mid-turn.
 */
export class McpSource {
  /** The server's name: the `name` option, else the name it reports. */
  readonly name: string;
  private current: readonly AnyTool[] = [];
  private byFingerprint = new Map<string, AnyTool>();
  /** Two tools of the current list that become one harness name: {@link McpSource.refresh} refuses the list. */
  private clash: NameClash | undefined;
  /** Every tool this source made, to tell its own registrations from other tools. */
  private readonly made = new WeakSet<AnyTool>();
  private readonly listeners = new Set<ToolsChangedListener>();

  /** Made by `connectMcp`. */
  constructor(
    name: string,
    private readonly connection: McpSourceConnection,
    private readonly prefix: string | undefined,
    tools: readonly McpToolInfo[],
  ) {
    this.name = name;
    this.update(tools);
  }

  /** The server's tools as harness tools, as last listed. */
  get tools(): readonly AnyTool[] {
    return this.current;
  }

  /** The stdio server's process id (a new one after a restart); undefined over HTTP. */
  get pid(): number | undefined {
    return this.connection.pid;
  }

  /** Calls `listener` with the new tools whenever the server's list changes; returns the unsubscribe. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Makes `registry` hold this source's current tools: unregisters those of its tools the
   * server no longer lists (or lists differently) and registers the new ones. Cheap when
   * nothing changed; call it between turns. All or nothing: a new name that another tool
   * already has throws `invalid_argument`, and two of the server's tools that become one name
   * (`get.item`, `get_item`) throw `mcp_error`, leaving the registry as it was.
   */
  refresh(registry: ToolRegistry): ToolsRefresh {
    const next = new Set(this.current);
    const mine = registry.names().filter((name) => {
      const tool = registry.get(name);
      return tool !== undefined && this.made.has(tool);
    });
    const removed = mine.filter((name) => !next.has(registry.get(name) as AnyTool));
    const added = this.current.filter((tool) => registry.get(tool.name) !== tool);
    if (this.clash !== undefined) throw nameClashError(this.name, this.clash);
    for (const tool of added) {
      const holder = registry.get(tool.name);
      if (holder !== undefined && !removed.includes(tool.name)) {
        const from = holder.source === undefined ? '' : ` (from ${holder.source})`;
        throw new HarnessError(
          'invalid_argument',
          `MCP server '${this.name}' now lists a tool '${tool.name}', but a tool of that name is already registered${from}; use a prefix`,
        );
      }
    }
    for (const name of removed) registry.unregister(name);
    registry.register(...added);
    return { added: added.map((tool) => tool.name), removed };
  }

  /**
   * Settles once the server's tool lists already announced (a `list_changed` that arrived,
   * a reconnect) have been fetched into {@link McpSource.tools}; never rejects. The agent awaits
   * it before {@link McpSource.refresh}, so a list changed during a call reaches the next turn.
   */
  async listed(): Promise<void> {
    await this.connection.listed?.();
  }

  /** Closes the connection and stops the server (its whole process group, for stdio). */
  close(): Promise<void> {
    this.listeners.clear();
    return this.connection.close();
  }

  /** Takes a new list from the server; listeners hear of it if it differs. (Called by the connection.) */
  update(tools: readonly McpToolInfo[]): void {
    const source = `mcp:${this.name}`;
    const call = this.connection.call.bind(this.connection);
    const byFingerprint = new Map<string, AnyTool>();
    const next = tools.map((info) => {
      const fingerprint = toolFingerprint(info);
      const tool = this.byFingerprint.get(fingerprint) ?? mcpTool(info, { prefix: this.prefix, source, call });
      this.made.add(tool);
      byFingerprint.set(fingerprint, tool);
      return tool;
    });
    const changed = next.length !== this.current.length || next.some((tool, i) => tool !== this.current[i]);
    this.byFingerprint = byFingerprint;
    this.current = next;
    this.clash = findNameClash(tools, this.prefix);
    if (!changed) return;
    for (const listener of [...this.listeners]) listener(next);
  }
}
