import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message, ReasoningContent } from '../../core/messages.js';
import { stableJson } from '../../core/stable-json.js';

/** One request as a model client received it, and the provider that client speaks for. */
export interface SentRequest {
  /** The messages sent. */
  readonly messages: readonly Message[];
  /** The client's provider (`ModelClient.provider`); undefined when it names none. */
  readonly provider: string | undefined;
}

/** A turn's identity across journal and requests: its text and its calls' ids. */
function turnKey(message: { readonly content: string; readonly toolCalls?: readonly { readonly callId: string }[] }) {
  return stableJson([message.content, (message.toolCalls ?? []).map((call) => call.callId)]);
}

/**
 * SPEC §15's reasoning integrity, checked on what was actually sent: every reasoning part in a
 * request belongs to the journaled turn that made it (same text, same calls), unchanged and in
 * the same order (a dropped signature, a reordered part), went only to the provider that made it,
 * and is never separated from its turn's tool calls (a turn whose provider is the request's and
 * that had reasoning carries all of it). Returns what is wrong, empty when nothing is.
 */
export function checkReasoningIntegrity(journal: readonly JournalEntry[], requests: readonly SentRequest[]): string[] {
  // Turns with the same text and call ids (a script asked the same thing twice) are told apart
  // by their order: the n-th such turn of a request is the n-th the journal holds.
  const made = new Map<string, (readonly ReasoningContent[])[]>();
  for (const entry of journal) {
    if (entry.type === 'assistant_message' || entry.type === 'agent_end') {
      const key = entry.type === 'agent_end' ? turnKey({ content: entry.response }) : turnKey(entry);
      const turns = made.get(key) ?? [];
      turns.push(entry.reasoning ?? []);
      made.set(key, turns);
    }
  }
  const problems: string[] = [];
  requests.forEach((request, r) => {
    const seen = new Map<string, number>();
    for (const message of request.messages) {
      if (message.role !== 'assistant') continue;
      const key = turnKey(message);
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const journaled = made.get(key)?.[nth];
      const sent = message.reasoning ?? [];
      const foreign = sent.filter((part) => part.provider !== request.provider);
      if (foreign.length > 0) {
        problems.push(
          `request ${r}: a reasoning part of '${foreign[0]?.provider}' was sent to ${request.provider === undefined ? 'a client that names no provider' : `'${request.provider}'`}`,
        );
      }
      const expected = (journaled ?? []).filter((part) => part.provider === request.provider);
      if (sent.length > 0 && journaled === undefined) {
        problems.push(`request ${r}: reasoning was sent with a turn that made none, or apart from its tool calls`);
      } else if (stableJson(sent.filter((part) => part.provider === request.provider)) !== stableJson(expected)) {
        problems.push(
          `request ${r}: the reasoning sent with turn ${key} is not the reasoning it made (a part dropped, changed or reordered)`,
        );
      }
    }
  });
  return problems;
}

/** {@link checkReasoningIntegrity}, throwing an Error that lists what is wrong. */
export function assertReasoningIntegrity(journal: readonly JournalEntry[], requests: readonly SentRequest[]): void {
  const problems = checkReasoningIntegrity(journal, requests);
  if (problems.length > 0) throw new Error(`reasoning integrity:\n- ${problems.join('\n- ')}`);
}
