// A three-level delegation on scripted models: `lead` delegates two items, one at a time, to the
// `researcher` agent tool; each researcher delegates its item to the `analyst` agent tool; each
// analyst calls the `effect` tool (kind write: a side effect that must not happen twice) once.
// Every scripted turn reads what it was sent, so a resumed run in another process plays the
// same script from wherever the journal stands.
import { z } from 'zod';
import {
  Agent,
  agentTool,
  Config,
  defineTool,
  type JournalStore,
  type Message,
  ScriptedClient,
  Session,
  StreamEvent,
  type ToolInvocation,
  ToolKind,
  ToolRegistry,
} from '../../../src/index.js';
import type { JsonObject } from '../../../src/tools/index.js';
import { drain } from '../../support/runs.js';

/** Usage of every scripted turn: 15 tokens. */
export const TURN_USAGE = { promptTokens: 10, completionTokens: 5, totalTokens: 15 } as const;

/** Items the lead delegates. */
export const ITEMS = 2;

/** The lead's final answer when every call succeeds. */
export const LEAD_ANSWER = 'report: research 1: analysis 1: effect 1 done | research 2: analysis 2: effect 2 done';

const toolContents = (messages: readonly Message[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
const itemOf = (messages: readonly Message[]) => {
  const task = String(messages.find((message) => message.role === 'user')?.content ?? '');
  return Number(/item (\d+)/.exec(task)?.[1] ?? 0);
};
const call = (callId: string, name: string, args: JsonObject) => [
  StreamEvent.toolCallComplete({ callId, name, arguments: args }),
  StreamEvent.messageComplete(TURN_USAGE),
];
const answer = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete(TURN_USAGE)];

/** A scripted client whose every turn is `turn` (many of them). */
function scripted(turn: (messages: readonly Message[]) => StreamEvent[]): ScriptedClient {
  return new ScriptedClient(Array.from({ length: 50 }, () => (messages: readonly Message[]) => turn(messages)));
}

/** The lead: delegates item 1, then item 2, then reports. */
export function leadClient(): ScriptedClient {
  return scripted((messages) => {
    const done = toolContents(messages);
    if (done.length < ITEMS)
      return call(`r${done.length + 1}`, 'researcher', { task: `research item ${done.length + 1}` });
    return answer(`report: ${done.join(' | ')}`);
  });
}

/** A researcher: delegates its item to the analyst, then answers with the analysis. */
export function researcherClient(): ScriptedClient {
  return scripted((messages) => {
    const n = itemOf(messages);
    const [analysis] = toolContents(messages);
    return analysis === undefined
      ? call('a1', 'analyst', { task: `analyse item ${n}` })
      : answer(`research ${n}: ${analysis}`);
  });
}

/** An analyst: calls `effect` once, then answers with its result. */
export function analystClient(): ScriptedClient {
  return scripted((messages) => {
    const n = itemOf(messages);
    const [effect] = toolContents(messages);
    return effect === undefined ? call('e1', 'effect', { n }) : answer(`analysis ${n}: ${effect}`);
  });
}

/** What the `effect` tool does for item `n` (it may wait on the call's signal). */
export type Effect = (n: number, invocation: ToolInvocation<{ n: number }>) => void | Promise<void>;

/** The clients of the three levels. */
export interface DelegationClients {
  readonly lead: ScriptedClient;
  readonly researcher: ScriptedClient;
  readonly analyst: ScriptedClient;
}

/** New clients for the three levels. */
export function delegationClients(): DelegationClients {
  return { lead: leadClient(), researcher: researcherClient(), analyst: analystClient() };
}

/** Options of {@link leadRegistry}. */
export interface DelegationOptions {
  readonly researcherConfig?: Config;
  readonly analystConfig?: Config;
}

/** The lead's tools: `researcher`, whose child has `analyst`, whose child has `effect`. */
export function leadRegistry(
  clients: DelegationClients,
  effect: Effect,
  options: DelegationOptions = {},
): ToolRegistry {
  const effectTool = defineTool({
    name: 'effect',
    description: 'Does the work for one item, with a side effect.',
    kind: ToolKind.WRITE,
    schema: z.object({ n: z.number().int() }),
    execute: async (invocation) => {
      await effect(invocation.params.n, invocation);
      return `effect ${invocation.params.n} done`;
    },
  });
  const analyst = agentTool({
    name: 'analyst',
    description: 'Analyses one item.',
    config: options.analystConfig ?? new Config(),
    client: clients.analyst,
    registry: new ToolRegistry().register(effectTool),
    instructions: 'You analyse one item.',
  });
  const researcher = agentTool({
    name: 'researcher',
    description: 'Researches one item.',
    config: options.researcherConfig ?? new Config(),
    client: clients.researcher,
    registry: new ToolRegistry().register(analyst),
    instructions: 'You research one item.',
  });
  return new ToolRegistry().register(researcher);
}

/** A lead session of the delegation in `store`, with fresh scripted clients and a no-op effect. */
export function leadSession(store: JournalStore, id = 'lead', config = new Config()): Session {
  const clients = delegationClients();
  return new Session(config, { client: clients.lead, registry: leadRegistry(clients, () => {}), store, id });
}

/** Runs the whole delegation into `store` as session `id`, and closes the session. */
export async function delegateInto(store: JournalStore, id = 'lead'): Promise<void> {
  const config = new Config();
  const session = leadSession(store, id, config);
  await drain(new Agent(config, { session }).run('write the report'));
  await session.close();
}
