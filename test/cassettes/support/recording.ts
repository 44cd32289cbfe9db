import { z } from 'zod';
import {
  Agent,
  Config,
  type ConfigOptions,
  defineTool,
  type ModelClient,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../../src/index.js';
import {
  type Cassette,
  type MakeAgent,
  type RecordCassetteOptions,
  recordCassette,
  ScriptedClient,
  type ScriptedTurn,
} from '../../../src/testing/index.js';
import type { ToolLike } from '../../../src/tools/index.js';

/** A read tool (runs concurrently with other reads) whose description a test may change. */
export function lookupTool(description = 'Looks a word up.', schema = z.object({ word: z.string() })): ToolLike {
  return defineTool({
    name: 'lookup',
    description,
    kind: ToolKind.READ,
    schema,
    execute: ({ params }) => `definition of ${(params as { word: string }).word}`,
  });
}

/** A read tool that answers after `delay(ms)` milliseconds: the order of parallel results. */
export function waitTool(delay: (ms: number) => number = (ms) => ms): ToolLike {
  return defineTool({
    name: 'wait',
    description: 'Waits, then says so.',
    kind: ToolKind.READ,
    schema: z.object({ ms: z.number() }),
    execute: async ({ params }) => {
      await new Promise((resolve) => setTimeout(resolve, delay(params.ms)));
      return `waited ${params.ms}`;
    },
  });
}

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

/** Two lookups in parallel, then a second turn with one more, then an answer: three turns, deltas included. */
export function lookupScript(): ScriptedTurn[] {
  return [
    [
      StreamEvent.textDelta('Let me '),
      StreamEvent.textDelta('look.'),
      StreamEvent.toolCallComplete({ callId: 'c1', name: 'lookup', arguments: { word: 'cat' } }),
      StreamEvent.toolCallComplete({ callId: 'c2', name: 'lookup', arguments: { word: 'dog' } }),
      StreamEvent.messageComplete(usage, 'tool_calls'),
    ],
    [
      StreamEvent.toolCallComplete({ callId: 'c3', name: 'lookup', arguments: { word: 'eel' } }),
      StreamEvent.messageComplete(usage, 'tool_calls'),
    ],
    [
      StreamEvent.textDelta('A cat, '),
      StreamEvent.textDelta('a dog and an eel.'),
      StreamEvent.messageComplete(usage, 'stop'),
    ],
  ];
}

/** What a test's agent is made of. */
export interface AgentParts {
  readonly config?: ConfigOptions;
  readonly tools?: readonly ToolLike[];
  /** Wraps the client as an adapter layer would (converting messages, say). */
  readonly wrap?: (client: ModelClient) => ModelClient;
}

/** A `makeAgent` for these parts. */
export function agentMaker(parts: AgentParts = {}): MakeAgent {
  return (client) => {
    const config = new Config(parts.config ?? {});
    const tools = new ToolRegistry(config).register(...(parts.tools ?? [lookupTool()]));
    return new Agent(config, { client: parts.wrap ? parts.wrap(client) : client, tools });
  };
}

/** Records one run of `turns` on the agent of `parts`; returns the cassette and the agent. */
export async function recordRun(
  turns: readonly ScriptedTurn[],
  parts: AgentParts = {},
  options: RecordCassetteOptions & { readonly input?: string } = {},
): Promise<{ cassette: Cassette; agent: Agent }> {
  const recorder = recordCassette('unused.cassette.jsonl', new ScriptedClient(turns), options);
  const agent = await agentMaker(parts)(recorder);
  for await (const _ of agent.run(options.input ?? 'Define cat, dog and eel.')) {
    // drain
  }
  return { cassette: recorder.cassette(agent.session), agent };
}
