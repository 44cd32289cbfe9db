import { type Compaction, keptFrom } from '../core/compaction.js';
import { contentText } from '../core/content-parts.js';
import type { Message, ToolMessage } from '../core/messages.js';
import { estimateContentTokens } from './part-tokens.js';
import { estimateTokens } from './token-estimate.js';

/** What an elided tool output is replaced with: the call and its result stay, the text goes. */
export function elisionMarker(characters: number): string {
  return `[elided ${characters.toLocaleString('en-US')} characters of tool output to save context]`;
}

/** Whether a message holds an image's or a file's bytes (a part with `data`). */
function holdsData(message: Message): boolean {
  if (message.role === 'system' || message.role === 'assistant' || typeof message.content === 'string') return false;
  return message.content.some((part) => part.type !== 'text' && part.data !== undefined);
}

function outputLength(message: ToolMessage): number {
  return contentText(message.content).length;
}

/** Tokens saved by eliding a tool output, in the provider's unit. */
function saving(message: ToolMessage, tokenScale: number): number {
  const marker = elisionMarker(outputLength(message));
  return Math.floor((estimateContentTokens(message.content) - estimateTokens(marker)) * tokenScale);
}

/** Where a compaction starts from and aims at. */
export interface CompactionGoal {
  /** The context's size now, in tokens. */
  readonly tokens: number;
  /** Compact until the context is at most this size. */
  readonly targetTokens: number;
  /** The most recent turns stay as they are. */
  readonly keepTurns: number;
  /**
   * Provider tokens per estimated token, as measured on the last turn (1 when none reported):
   * savings are estimated, then scaled, so the size after is in the unit of the size before.
   */
  readonly tokenScale: number;
}

/**
 * Elides old tool outputs, oldest first, until the context is within the target: each output
 * becomes {@link elisionMarker}, in a `tool` message that still answers its call. Undefined when
 * nothing old enough can be shortened.
 *
 * The compaction's entry holds every message of its range, so the range stops before a message
 * it would keep that holds an image's or a file's bytes: they are journaled once, in their own
 * entry (SPEC §15). A context still over its limit is then compacted again, from after it.
 */
export function elideOldOutputs(messages: readonly Message[], goal: CompactionGoal): Compaction | undefined {
  const end = keptFrom(messages, goal.keepTurns);
  let tokens = goal.tokens;
  let from = -1;
  let to = -1;
  const replaced = new Map<number, ToolMessage>();
  for (let index = 0; index < end && tokens > goal.targetTokens; index++) {
    const message = messages[index] as Message;
    const saved = message.role === 'tool' ? saving(message, goal.tokenScale) : 0;
    if (message.role !== 'tool' || saved <= 0) {
      // Kept as it is: a range reaching past it would copy its bytes into the compaction's entry.
      if (from >= 0 && holdsData(message)) break;
      continue;
    }
    replaced.set(index, { role: 'tool', callId: message.callId, content: elisionMarker(outputLength(message)) });
    tokens -= saved;
    if (from < 0) from = index;
    to = index + 1;
  }
  if (from < 0) return undefined;
  const by: Message[] = [];
  for (let index = from; index < to; index++) by.push(replaced.get(index) ?? (messages[index] as Message));
  return { strategy: 'elide', from, to, messages: by, tokensBefore: goal.tokens, tokensAfter: Math.max(0, tokens) };
}
