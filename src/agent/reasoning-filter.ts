import type { DroppedReasoning } from '../core/journal-entry.js';
import type { Message, ReasoningContent } from '../core/messages.js';

/**
 * Takes out of `messages` (a request's own copy), in place, every reasoning part that `provider`
 * did not make (SPEC §15: a part goes back only to the provider that made it; a client with no
 * `provider` gets none), and returns a note for each part taken out, in message and part order,
 * for the request's journal entry; undefined when none was. Messages without reasoning are left
 * as they are, so a conversation that never reasoned costs one check per message.
 */
export function dropForeignReasoning(
  messages: Message[],
  provider: string | undefined,
): readonly DroppedReasoning[] | undefined {
  const dropped: DroppedReasoning[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || message.reasoning === undefined) continue;
    if (message.reasoning.every((part) => part.provider === provider)) continue;
    const kept: ReasoningContent[] = [];
    message.reasoning.forEach((part, at) => {
      if (part.provider === provider) kept.push(part);
      else dropped.push(droppedNote(part.provider, index, at, provider));
    });
    const { reasoning: _dropped, ...rest } = message;
    messages[index] = Object.freeze(kept.length === 0 ? rest : { ...rest, reasoning: Object.freeze(kept) });
  }
  return dropped.length === 0 ? undefined : Object.freeze(dropped);
}

function droppedNote(provider: string, message: number, part: number, client: string | undefined): DroppedReasoning {
  return Object.freeze(
    client === undefined
      ? { provider, message, part, reason: 'other_provider' as const }
      : { provider, message, part, reason: 'other_provider' as const, client },
  );
}
