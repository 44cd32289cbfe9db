import { type Compaction, keptFrom } from '../core/compaction.js';
import { contentText } from '../core/content-parts.js';
import type { Message, ToolMessage } from '../core/messages.js';
import { estimateContentTokens } from './part-tokens.js';
import { estimateTokens } from './token-estimate.js';

/** What an elided tool output is replaced with: the call and its result stay, the text goes. */
export function elisionMarker(characters: number): string {
  return `[elided ${characters.toLocaleString('en-US')} characters of tool output to save context]`;
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
 */
export function elideOldOutputs(messages: readonly Message[], goal: CompactionGoal): Compaction | undefined {
  const end = keptFrom(messages, goal.keepTurns);
  let tokens = goal.tokens;
  let from = -1;
  let to = -1;
  const replaced = new Map<number, ToolMessage>();
  for (let index = 0; index < end && tokens > goal.targetTokens; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'tool') continue;
    const marker = elisionMarker(contentText(message.content).length);
    const saved = Math.floor((estimateContentTokens(message.content) - estimateTokens(marker)) * goal.tokenScale);
    if (saved <= 0) continue;
    replaced.set(index, { role: 'tool', callId: message.callId, content: marker });
    tokens -= saved;
    if (from < 0) from = index;
    to = index + 1;
  }
  if (from < 0) return undefined;
  const by: Message[] = [];
  for (let index = from; index < to; index++) by.push(replaced.get(index) ?? (messages[index] as Message));
  return { strategy: 'elide', from, to, messages: by, tokensBefore: goal.tokens, tokensAfter: Math.max(0, tokens) };
}
