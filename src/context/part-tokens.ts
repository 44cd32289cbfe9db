import type { ContentPart, FilePart, ImagePart, MessageContent } from '../core/content-parts.js';
import { base64Bytes } from '../core/content-parts.js';
import { type Dimensions, imageDimensions } from './image-dimensions.js';
import { CHARS_PER_TOKEN, estimateTokens } from './token-estimate.js';

/** Tokens assumed for an image whose size is unknown (a URL, an unreadable header): the larger providers' cap. */
export const UNKNOWN_IMAGE_TOKENS = 1_600;
/** Tokens assumed per PDF page: the top of Anthropic's documented 1,500–3,000 (text plus the page's image). */
export const PDF_PAGE_TOKENS = 3_000;

/**
 * OpenAI's documented count for a `detail: high` image: fit in 2048×2048, scale the short side
 * down to 768, then 85 tokens plus 170 per 512-pixel tile.
 */
export function openAiImageTokens({ width, height }: Dimensions): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** Anthropic's documented count: the long edge scaled down to 1568 pixels, then width × height / 750. */
export function anthropicImageTokens({ width, height }: Dimensions): number {
  const fit = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((width * fit * (height * fit)) / 750);
}

// Parts live as long as their session and are estimated before every request: count each once.
const counted = new WeakMap<object, number>();

function imageTokens(part: ImagePart): number {
  const size = part.data === undefined ? undefined : imageDimensions(part.data);
  // The larger of the two providers' counts: the estimate guards a context limit, so it errs high.
  return size === undefined ? UNKNOWN_IMAGE_TOKENS : Math.max(openAiImageTokens(size), anthropicImageTokens(size));
}

function fileTokens(part: FilePart): number {
  if (part.data === undefined) return UNKNOWN_IMAGE_TOKENS;
  if (part.mediaType === 'application/pdf') {
    const pages =
      Buffer.from(part.data, 'base64')
        .toString('latin1')
        .match(/\/Type\s*\/Page\b/g)?.length ?? 1;
    return Math.max(1, pages) * PDF_PAGE_TOKENS;
  }
  return Math.ceil(base64Bytes(part.data) / CHARS_PER_TOKEN);
}

function partTokens(part: ContentPart): number {
  if (part.type === 'text') return estimateTokens(part.text);
  const known = counted.get(part);
  if (known !== undefined) return known;
  const tokens = part.type === 'image' ? imageTokens(part) : fileTokens(part);
  counted.set(part, tokens);
  return tokens;
}

/**
 * Estimated tokens of a message's content: a string by its length, an image by the providers'
 * documented formulas (the larger of OpenAI's and Anthropic's), a PDF by its pages.
 */
export function estimateContentTokens(content: MessageContent): number {
  if (typeof content === 'string') return estimateTokens(content);
  let tokens = 0;
  for (const part of content) tokens += partTokens(part);
  return tokens;
}
