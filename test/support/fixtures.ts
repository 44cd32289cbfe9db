import { z } from 'zod';
import type { TokenUsage } from '../../src/core/usage.js';
import {
  Agent,
  type AgentEvent,
  Config,
  type ConfigOptions,
  type ModelClient,
  Session,
  StreamEvent,
  Tool,
  type ToolInvocation,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import type { ToolLike } from '../../src/tools/index.js';

const checkpointSchema = z.object({ step: z.number().int().min(1).describe('The completed deterministic step.') });

/** The seed's CheckpointTool. */
export class CheckpointTool extends Tool<typeof checkpointSchema> {
  name = 'checkpoint';
  description = 'Record one deterministic progress step.';
  kind = ToolKind.READ;
  schema = checkpointSchema;
  async execute({ params }: ToolInvocation<{ step: number }>): Promise<ToolResult> {
    return ToolResult.success(`step ${params.step} complete`);
  }
}

/** Builds config, registry, session and agent the way the seed does. */
export function makeAgent(
  client: ModelClient,
  tools: readonly ((config: Config) => ToolLike<z.ZodType>)[],
  options: ConfigOptions,
): { agent: Agent; session: Session; config: Config; registry: ToolRegistry } {
  const config = new Config(options);
  const registry = new ToolRegistry(config);
  for (const make of tools) registry.register(make(config));
  const session = new Session(config, { client, registry });
  const agent = new Agent(config, { session });
  return { agent, session, config, registry };
}

/** Drains a run. */
export async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Usage of `p` prompt and `c` completion tokens. */
export function usage(p: number, c: number) {
  return { promptTokens: p, completionTokens: c, totalTokens: p + c };
}

/** A turn that calls one tool. */
export function toolTurn(callId: string, name: string, args: Record<string, unknown> | string, u = usage(5, 2)) {
  return [
    StreamEvent.toolCallComplete({ callId, name, arguments: args as Record<string, never> }),
    StreamEvent.messageComplete(u),
  ];
}

/** A turn that answers with text. */
export function textTurn(text: string, u: TokenUsage = usage(5, 2)) {
  return [StreamEvent.textDelta(text), StreamEvent.messageComplete(u)];
}
