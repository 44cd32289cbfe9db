import { HarnessError } from '../core/errors.js';
import { harnessToolName } from './mcp-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { withoutControls } from './output-tail.js';

/** Two of a server's tools that become one harness name ({@link harnessToolName}). */
export interface NameClash {
  /** The harness name both become. */
  readonly name: string;
  /** The server's name of the first. */
  readonly first: string;
  /** The server's name of the second. */
  readonly second: string;
}

/** The first two tools of a list that the model would call by the same name, if any. */
export function findNameClash(tools: readonly McpToolInfo[], prefix: string | undefined): NameClash | undefined {
  const seen = new Map<string, string>();
  for (const tool of tools) {
    const name = harnessToolName(tool.name, prefix);
    const first = seen.get(name);
    if (first !== undefined) return { name, first, second: tool.name };
    seen.set(name, tool.name);
  }
  return undefined;
}

/**
 * The `mcp_error` refusing a server's list with a {@link NameClash}: the model could not tell
 * the two tools apart, and a prefix cannot either (it prefixes both). The server's names (its
 * tools' and, without a `name` option, its own) are its text, shown with control characters made visible.
 */
export function nameClashError(server: string, clash: NameClash): HarnessError {
  const first = withoutControls(clash.first);
  const second = withoutControls(clash.second);
  const which =
    clash.first === clash.second
      ? `lists the tool '${first}' twice`
      : `lists two tools that both become '${clash.name}' (a tool name holds only letters, digits, _ and -, at most 64 characters): '${first}' and '${second}'`;
  return new HarnessError('mcp_error', `MCP server '${withoutControls(server)}' ${which}`);
}
