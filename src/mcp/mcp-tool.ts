import { z } from 'zod';
import type { JsonObject } from '../core/messages.js';
import { ToolKind } from '../core/tool-kind.js';
import type { ToolResult } from '../core/tool-result.js';
import type { AnyTool } from '../tools/registry.js';
import type { McpToolInfo } from './mcp-tool-info.js';

/** Calls one tool of the server by its own name. */
export type McpCall = (name: string, args: JsonObject, signal: AbortSignal) => Promise<ToolResult>;

/** Names the registry (and model APIs) accept. */
const INVALID_NAME_CHARACTERS = /[^A-Za-z0-9_-]/g;
const MAX_NAME = 64;

/**
 * The name the model calls a server's tool by: `prefix_name` with a prefix, else the server's
 * name; characters a model API refuses (anything but letters, digits, `_` and `-`) become `_`,
 * and it is cut to 64 characters. The server is always called by its own name.
 */
export function harnessToolName(name: string, prefix: string | undefined): string {
  const full = prefix === undefined ? name : `${prefix}_${name}`;
  return full.replace(INVALID_NAME_CHARACTERS, '_').slice(0, MAX_NAME);
}

/** `read` for a tool the server marks `readOnlyHint: true`, else `network` (it may do anything). */
export function mcpToolKind(info: McpToolInfo): ToolKind {
  return info.annotations?.readOnlyHint === true ? ToolKind.READ : ToolKind.NETWORK;
}

/**
 * A light check of the arguments: an object holding the schema's `required` properties. The
 * server validates them fully; its refusal comes back as an error result.
 */
function argumentsSchema(inputSchema: JsonObject) {
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((key): key is string => typeof key === 'string')
    : [];
  return z.record(z.string(), z.unknown()).superRefine((args, context) => {
    for (const key of required) {
      if (!(key in args)) context.addIssue({ code: 'custom', path: [key], message: 'required' });
    }
  });
}

/** The fingerprint of a tool's description: equal fingerprints make the same harness tool. */
export function toolFingerprint(info: McpToolInfo): string {
  return JSON.stringify([info.name, info.title, info.description, info.inputSchema, info.annotations]);
}

/**
 * A server's tool as a harness tool: its JSON Schema goes to the model as it is (`parameters`),
 * its kind follows `readOnlyHint`, its `source` is `mcp:<server>`, and `execute` calls the
 * server with the invocation's signal (a cancelled call sends MCP cancellation).
 */
export function mcpTool(info: McpToolInfo, options: { prefix?: string; source: string; call: McpCall }): AnyTool {
  const inputSchema: JsonObject =
    typeof info.inputSchema === 'object' && info.inputSchema !== null ? info.inputSchema : { type: 'object' };
  return {
    name: harnessToolName(info.name, options.prefix),
    description: info.description ?? info.title ?? info.annotations?.title ?? `MCP tool ${info.name}`,
    kind: mcpToolKind(info),
    schema: argumentsSchema(inputSchema),
    parameters: inputSchema,
    source: options.source,
    execute: ({ params, signal }) => options.call(info.name, params as JsonObject, signal),
  };
}
