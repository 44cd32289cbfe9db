import type { CompactionStrategy } from '../core/compaction.js';
import { HarnessError } from '../core/errors.js';
import type { ModelClient } from '../core/model-client.js';
import { refuseMisspelledKeys } from './option-keys.js';

/** The compaction strategies, in the order the docs list them. */
export const COMPACTION_STRATEGIES: readonly CompactionStrategy[] = ['elide', 'summarise'];

/** Options of `Config({ context })`: when and how the model's context is compacted. */
export interface ContextOptions {
  /**
   * The context size, in tokens, a request may not exceed: before a request that would, older
   * turns are compacted. Tokens come from the provider's reported usage when known, else from
   * the estimate of `estimateContextTokens` (4 characters a token).
   */
  readonly maxTokens: number;
  /** `elide` (default) replaces old tool outputs with a marker; `summarise` replaces old turns with a model-written summary. */
  readonly strategy?: CompactionStrategy | 'summarize';
  /** A compaction goes on until the context is at most this size. Default: half of `maxTokens`. */
  readonly targetTokens?: number;
  /** The most recent turns (assistant messages and what follows them) are never compacted. Default 1. */
  readonly keepTurns?: number;
  /** The model that writes summaries (`summarise`); default the session's own client. */
  readonly client?: ModelClient;
}

/** Checked context options, every default filled. */
export interface ContextSettings {
  readonly maxTokens: number;
  readonly strategy: CompactionStrategy;
  readonly targetTokens: number;
  readonly keepTurns: number;
  readonly client: ModelClient | undefined;
}

const CONTEXT_KEYS = ['maxTokens', 'strategy', 'targetTokens', 'keepTurns', 'client'] as const;

/** Default number of most recent turns that compaction leaves alone. */
export const DEFAULT_KEEP_TURNS = 1;

function invalid(message: string): never {
  throw new HarnessError('invalid_config', `context.${message}`);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/** Checks `Config({ context })`; throws `invalid_config` naming the option. */
export function checkContextOptions(options: ContextOptions | undefined): ContextSettings | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new HarnessError('invalid_config', `context must be an options object, got ${String(options)}`);
  }
  refuseMisspelledKeys(options, CONTEXT_KEYS, 'Config context');
  const { maxTokens, targetTokens, keepTurns, client } = options;
  if (!isCount(maxTokens)) invalid(`maxTokens must be a positive integer, got ${String(maxTokens)}`);
  const strategy = options.strategy === 'summarize' ? 'summarise' : (options.strategy ?? 'elide');
  if (!COMPACTION_STRATEGIES.includes(strategy)) {
    invalid(`strategy must be one of ${COMPACTION_STRATEGIES.join(', ')}, got ${String(options.strategy)}`);
  }
  if (targetTokens !== undefined && (!isCount(targetTokens) || targetTokens > maxTokens)) {
    invalid(
      `targetTokens must be a positive integer no larger than maxTokens (${maxTokens}), got ${String(targetTokens)}`,
    );
  }
  if (keepTurns !== undefined && !isCount(keepTurns)) {
    invalid(`keepTurns must be a positive integer, got ${String(keepTurns)}`);
  }
  if (client !== undefined && typeof (client as { chatCompletion?: unknown })?.chatCompletion !== 'function') {
    invalid('client must have a chatCompletion method');
  }
  return Object.freeze({
    maxTokens,
    strategy,
    targetTokens: targetTokens ?? Math.max(1, Math.floor(maxTokens / 2)),
    keepTurns: keepTurns ?? DEFAULT_KEEP_TURNS,
    client,
  });
}
