import type { Message } from './messages.js';

/** How old turns are compacted: tool outputs replaced by a marker, or turns summarised by the model. */
export type CompactionStrategy = 'elide' | 'summarise';

/**
 * Noted on a `compaction` entry when the context size it was decided on used a bounded scale:
 * the provider's reported ratio and the bound used instead.
 */
export interface BoundedTokenScale {
  /** Provider tokens per estimated token, as reported (rounded to 4 decimals). */
  readonly reported: number;
  /** The bound used in its place. */
  readonly used: number;
}

/**
 * One compaction of the model's context: `messages[from, to)` were replaced by `messages`.
 * Journaled as a `compaction` entry, so replay and resume rebuild the context the model saw.
 */
export interface Compaction {
  readonly strategy: CompactionStrategy;
  /** Index of the first replaced message in the context. */
  readonly from: number;
  /** Index after the last replaced message. */
  readonly to: number;
  /** What replaced them (the same calls and results with outputs elided, or one summary). */
  readonly messages: readonly Message[];
  /** The context's size before, in tokens (reported or estimated). */
  readonly tokensBefore: number;
  /** Its estimated size after. */
  readonly tokensAfter: number;
  /**
   * Present when `tokensBefore` was scaled by a bound rather than by the provider's reported
   * tokens per estimated token, which was out of range (a server that reports tiny counts).
   */
  readonly tokenScale?: BoundedTokenScale;
}

/**
 * Index of the first message compaction leaves alone: the `keepTurns`-th assistant message from
 * the end (a turn is an assistant message and what follows it). `-1` when the context holds
 * fewer turns than that, and so nothing old enough to compact.
 */
export function keptFrom(messages: readonly Message[], keepTurns: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if ((messages[index] as Message).role === 'assistant' && ++seen === keepTurns) return index;
  }
  return -1;
}
