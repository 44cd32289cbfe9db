import type { JsonObject } from '../core/messages.js';

/** What an MCP server says about one of its tools (the fields the harness uses). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The tool's JSON Schema, sent to the model as it is. */
  readonly inputSchema: JsonObject;
  readonly annotations?: {
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
}
