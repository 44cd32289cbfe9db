/**
 * Context management (`agent-harness/context`): the options that bound a request's size, the
 * compaction records, and the token estimates compaction uses.
 */

export type { ContextOptions, ContextSettings } from '../config/context-options.js';
export { COMPACTION_STRATEGIES } from '../config/context-options.js';
export type { BoundedTokenScale, Compaction, CompactionStrategy } from '../core/compaction.js';
export { elisionMarker } from './elide-outputs.js';
export type { Dimensions } from './image-dimensions.js';
export { imageDimensions } from './image-dimensions.js';
export {
  anthropicImageTokens,
  estimateContentTokens,
  openAiImageTokens,
  PDF_PAGE_TOKENS,
  UNKNOWN_IMAGE_TOKENS,
} from './part-tokens.js';
export { SUMMARY_REQUEST } from './summarise-turns.js';
export {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  estimateToolTokens,
} from './token-estimate.js';
export { boundTokenScale, MAX_TOKEN_SCALE, MIN_TOKEN_SCALE } from './token-scale.js';
