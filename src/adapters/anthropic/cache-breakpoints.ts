import type {
  AnthropicCacheableBlock,
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicSystemBlock,
  AnthropicTool,
} from './anthropic-types.js';

/**
 * Where `AnthropicClient` places prompt-cache breakpoints (`cache_control`). Each is on by
 * default; the API takes at most {@link MAX_CACHE_BREAKPOINTS} in a request.
 */
export interface AnthropicCacheOptions {
  /** A breakpoint on the last tool definition. Default true. */
  readonly tools?: boolean;
  /** A breakpoint on the system prompt. Default true. */
  readonly system?: boolean;
  /**
   * Breakpoints on the last this many messages of each request (0 for none). Default 1. Cut to
   * what the other breakpoints leave of the API's maximum.
   */
  readonly messages?: number;
  /** How long the cache keeps a prefix: `5m` (the API's default) or `1h`. */
  readonly ttl?: '5m' | '1h';
}

/** The most breakpoints the Messages API accepts in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** What a request holds before breakpoints are placed. */
export interface CacheablePrompt {
  readonly tools: AnthropicTool[] | undefined;
  readonly system: string | undefined;
  readonly messages: AnthropicMessage[];
}

/** The same, with breakpoints placed: the system prompt as text blocks when it carries one. */
export interface CachedPrompt {
  readonly tools: AnthropicTool[] | undefined;
  readonly system: string | AnthropicSystemBlock[] | undefined;
  readonly messages: AnthropicMessage[];
}

function isCacheable(block: AnthropicContentBlock): block is AnthropicCacheableBlock {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking';
}

/** The message with a breakpoint on its last block that may carry one (thinking blocks may not). */
function markMessage(message: AnthropicMessage, control: AnthropicCacheControl): AnthropicMessage | undefined {
  const content = [...message.content];
  for (let at = content.length - 1; at >= 0; at--) {
    const block = content[at];
    if (block !== undefined && isCacheable(block)) {
      content[at] = { ...block, cache_control: control };
      return { role: message.role, content };
    }
  }
  return undefined;
}

/**
 * Places breakpoints: on the last tool, on the system prompt, then on the last messages, never
 * more than {@link MAX_CACHE_BREAKPOINTS}. Tools come first in the prefix the API caches, then
 * the system prompt, then the messages. Returns new arrays; the prompt given is not changed.
 */
export function placeCacheBreakpoints(prompt: CacheablePrompt, options: AnthropicCacheOptions = {}): CachedPrompt {
  const control: AnthropicCacheControl = options.ttl ? { type: 'ephemeral', ttl: options.ttl } : { type: 'ephemeral' };
  let left = MAX_CACHE_BREAKPOINTS;
  let tools = prompt.tools;
  const lastTool = tools?.at(-1);
  if (options.tools !== false && tools !== undefined && lastTool !== undefined) {
    tools = [...tools.slice(0, -1), { ...lastTool, cache_control: control }];
    left--;
  }
  let system: CachedPrompt['system'] = prompt.system;
  if (options.system !== false && prompt.system !== undefined && prompt.system !== '') {
    system = [{ type: 'text', text: prompt.system, cache_control: control }];
    left--;
  }
  const messages = [...prompt.messages];
  let wanted = Math.min(Math.max(0, Math.floor(options.messages ?? 1)), left);
  for (let at = messages.length - 1; at >= 0 && wanted > 0; at--) {
    const message = messages[at];
    const marked = message && markMessage(message, control);
    if (marked === undefined) continue;
    messages[at] = marked;
    wanted--;
  }
  return { tools, system, messages };
}
