import { z } from 'zod';
import {
  Agent,
  type Config,
  defineTool,
  type JournalEntry,
  type JournalStore,
  ScriptedClient,
  type Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain } from './runs.js';

/**
 * A run cut in its executingTools state, as journal version 1 (and any version) writes it: the
 * model asked for `pay` (p1, non-idempotent) and `look` (l1, a read), and neither has a result.
 */
export const V1_CUT: readonly Record<string, unknown>[] = [
  { type: 'user_message', content: 'pay the invoice' },
  { type: 'turn_start' },
  { type: 'usage', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } },
  {
    type: 'assistant_message',
    content: '',
    toolCalls: [
      { callId: 'p1', name: 'pay', arguments: {} },
      { callId: 'l1', name: 'look', arguments: {} },
    ],
  },
  { type: 'transition', event: 'xstate.done.actor.model', from: 'awaitingModel', to: 'executingTools' },
];

/** The `pay` (write) and `look` (read) tools of {@link V1_CUT}; each pushes its call id on `ran` when it runs. */
export function payAndLook(config: Config, ran: string[]): ToolRegistry {
  const tool = (name: string, kind: ToolKind) =>
    defineTool({
      name,
      description: `${name} tool`,
      kind,
      schema: z.object({}),
      execute: ({ callId }) => {
        ran.push(callId);
        return `${name} done`;
      },
    });
  return new ToolRegistry(config).register(tool('pay', ToolKind.WRITE)).register(tool('look', ToolKind.READ));
}

/** Stores `entries` (default {@link V1_CUT}) as the version 1 session `id` of `store`. */
export async function storeVersion1(
  store: JournalStore,
  id = 'v1',
  entries: readonly object[] = V1_CUT,
  meta: Readonly<Record<string, string>> = {},
): Promise<void> {
  const writer = await store.openWriter(id, { meta: { journalVersion: '1', ...meta } });
  await writer.append(JSON.parse(JSON.stringify(entries)));
  await writer.close();
}

/**
 * Resumes `session` with {@link payAndLook} and a model that answers `done`: the last event's
 * type, the calls that ran, and the tool results the journal holds, by call id.
 */
export async function resumeWithPayAndLook(session: Session, config: Config) {
  const ran: string[] = [];
  const client = new ScriptedClient([[StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]);
  const events = await drain(new Agent(config, { session, client, tools: payAndLook(config, ran) }).resume());
  const results: Record<string, unknown> = Object.fromEntries(
    session.journal.flatMap((entry: JournalEntry) =>
      entry.type === 'tool_result' ? [[entry.callId, entry.content]] : [],
    ),
  );
  return { end: events.at(-1)?.type, ran, results };
}
