import type { Message, ReasoningContent } from '../core/messages.js';

/**
 * `messages` (a request's own copy) with every reasoning part that `provider` did not make taken
 * out, in place (SPEC §15: a part goes back only to the provider that made it; a client with no
 * `provider` gets none). Messages without reasoning are left as they are, so a conversation that
 * never reasoned costs one check per message.
 */
export function reasoningFor(messages: Message[], provider: string | undefined): Message[] {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || message.reasoning === undefined) continue;
    if (message.reasoning.every((part) => part.provider === provider)) continue;
    const kept: ReasoningContent[] = message.reasoning.filter((part) => part.provider === provider);
    const { reasoning: _dropped, ...rest } = message;
    messages[index] = Object.freeze(kept.length === 0 ? rest : { ...rest, reasoning: Object.freeze(kept) });
  }
  return messages;
}
