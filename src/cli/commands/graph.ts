import { parseArgs } from 'node:util';
import { toDot } from '../../diagram/dot.js';
import { toGraphJson } from '../../diagram/graph-json.js';
import { toMermaid } from '../../diagram/mermaid.js';
import { agentMachine } from '../../machines/agent-machine.js';
import type { Output } from '../render-human.js';
import { UsageError } from '../usage-error.js';

/** Help text of `agent-harness graph`. */
export const GRAPH_HELP = `Usage: agent-harness graph [--format mermaid|dot|json]

Prints the agent machine's diagram, generated from the machine definition: states, transitions
labelled with their events and guards, and the actors each state invokes or spawns.

Options:
  --format F  mermaid (stateDiagram-v2, default), dot (Graphviz) or json (the graph as data)
`;

const RENDERERS = { mermaid: toMermaid, dot: toDot, json: toGraphJson } as const;

function isFormat(value: string): value is keyof typeof RENDERERS {
  return Object.hasOwn(RENDERERS, value);
}

/** Prints the machine diagram; returns the exit code. */
export async function graphCommand(argv: readonly string[], out: Output): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { format: { type: 'string', short: 'f', default: 'mermaid' } },
    strict: true,
  });
  const format = values.format;
  if (!isFormat(format)) {
    const known = Object.keys(RENDERERS).join(', ');
    throw new UsageError(`unknown --format '${format}'; use one of: ${known}`);
  }
  out.write(RENDERERS[format](agentMachine));
  return 0;
}
