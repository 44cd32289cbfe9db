import type { ReasoningContent } from '../../core/messages.js';
import { ANTHROPIC_PROVIDER } from './convert-reasoning.js';

type Partial =
  | { readonly type: 'thinking'; text: string; signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string };

/**
 * The thinking blocks of one streamed message as they are assembled, by block index: a
 * `thinking` block gathers its `thinking_delta` text and its `signature_delta` (sent whole, just
 * before the block stops: it replaces, as in the SDK); a `redacted_thinking` block is whole at
 * its start. Each becomes one reasoning part when its block stops.
 */
export class ThinkingBlocks {
  private readonly open = new Map<number, Partial>();

  /**
   * Starts the block at `index` when it is a thinking block; returns whether it was one. A
   * `thinking` block's text starts empty: what its start holds comes through {@link addText}.
   */
  start(index: number, block: { type: string; signature?: string; data?: string }): boolean {
    if (block.type === 'thinking') {
      this.open.set(index, { type: 'thinking', text: '', signature: block.signature ?? '' });
      return true;
    }
    if (block.type === 'redacted_thinking') {
      this.open.set(index, { type: 'redacted_thinking', data: block.data ?? '' });
      return true;
    }
    return false;
  }

  /** Adds a piece of thinking text to the block at `index`; returns the piece when it was one of ours. */
  addText(index: number, piece: string): string | undefined {
    const block = this.open.get(index);
    if (block?.type !== 'thinking' || piece === '') return undefined;
    block.text += piece;
    return piece;
  }

  /** Sets the signature of the thinking block at `index`. */
  sign(index: number, signature: string): void {
    const block = this.open.get(index);
    if (block?.type === 'thinking') block.signature = signature;
  }

  /** Closes the block at `index`: its reasoning part, or undefined when it was no thinking block. */
  stop(index: number): ReasoningContent | undefined {
    const block = this.open.get(index);
    if (block === undefined) return undefined;
    this.open.delete(index);
    if (block.type === 'redacted_thinking') {
      return { type: 'redacted_reasoning', provider: ANTHROPIC_PROVIDER, data: block.data };
    }
    return { type: 'reasoning', provider: ANTHROPIC_PROVIDER, text: block.text, signature: block.signature };
  }
}
