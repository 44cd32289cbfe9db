import { base64Bytes, IMAGE_MEDIA_TYPES, type MessageContent } from '../core/content-parts.js';
import { redactUrl } from '../core/redact-url.js';
import type { TimelineAttachment } from './timeline-step.js';

/** Base64 text, nothing else (no `data:` prefix, no markup). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The images and files of a user message or a tool result, for the timeline; undefined for a
 * string or parts without any. An image keeps its data only when its media type is on the
 * allow-list and the data is base64, so the page can show it as a `data:` image; a file keeps
 * its type, name and size. A URL is kept as text (without its user name and password), for the
 * page to name, never to load.
 */
export function timelineAttachments(content: MessageContent): TimelineAttachment[] | undefined {
  if (typeof content === 'string') return undefined;
  const attachments: TimelineAttachment[] = [];
  for (const part of content) {
    if (part.type === 'text') continue;
    const { data, url } = part;
    const drawable = part.type === 'image' && IMAGE_MEDIA_TYPES.includes(part.mediaType);
    attachments.push({
      type: part.type,
      mediaType: part.mediaType,
      ...(typeof data === 'string' ? { bytes: base64Bytes(data) } : {}),
      ...(drawable && typeof data === 'string' && BASE64.test(data) ? { data } : {}),
      ...(typeof url === 'string' ? { url: redactUrl(url) } : {}),
      ...(part.type === 'file' && part.name !== undefined ? { name: part.name } : {}),
    });
  }
  return attachments.length === 0 ? undefined : attachments;
}
