import { parseArgs } from 'node:util';
import { closeAll } from '../../mcp/connect-mcp.js';
import { withoutControls } from '../../mcp/output-tail.js';
import { hasMcp, MCP_FLAGS, MCP_HELP, mcpFlags } from '../mcp-flags.js';
import { connectFlagged } from '../mcp-tools.js';
import type { Output } from '../render-human.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness mcp`. */
export const MCP_COMMAND_HELP = `Usage: agent-harness mcp list [options]

Connects to MCP servers and prints each server's tools: name, kind (read when the server marks
the tool read-only, else network) and the first line of its description. The servers are
stopped again before it exits.

Options:
${MCP_HELP}
Examples:
  agent-harness mcp list --mcp "npx -y @modelcontextprotocol/server-filesystem ."
  agent-harness mcp list --mcp-url http://127.0.0.1:3000/mcp --mcp-config mcp.json

Exit codes: 0 listed, 1 a server failed to start, 2 bad usage.
`;

const MAX_DESCRIPTION = 100;

function firstLine(text: string): string {
  const line = withoutControls(text).split('\n')[0]?.trim() ?? '';
  return line.length > MAX_DESCRIPTION ? `${line.slice(0, MAX_DESCRIPTION - 1)}…` : line;
}

/** `agent-harness mcp list`: returns the exit code. */
export async function mcpCommand(argv: readonly string[], out: Output): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'list')
    throw new UsageError(`unknown mcp subcommand '${sub ?? ''}'; try: agent-harness mcp list --mcp "…"`);
  const { values, positionals } = parseArgs({ args: rest, options: MCP_FLAGS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const flags = mcpFlags(values);
  if (!hasMcp(flags)) throw new UsageError('name at least one server with --mcp, --mcp-url or --mcp-config');
  const sources = await connectFlagged(flags);
  try {
    for (const source of sources) {
      const count = source.tools.length;
      out.write(`${withoutControls(source.name)} (${count} tool${count === 1 ? '' : 's'})\n`);
      const width = Math.max(0, ...source.tools.map((tool) => tool.name.length));
      for (const tool of source.tools) {
        out.write(`  ${tool.name.padEnd(width)}  ${tool.kind.padEnd(7)}  ${firstLine(tool.description)}\n`);
      }
    }
    return 0;
  } finally {
    await closeAll(sources);
  }
}
