import { z } from 'zod';
import { base64Bytes, type ContentPart, IMAGE_MEDIA_TYPES, type MessageContent } from './content-parts.js';
import { HarnessError } from './errors.js';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

const data = z.base64({ error: 'must be base64 text (without a data: prefix)' });
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

function oneSource(part: { data?: string; url?: string }): boolean {
  return (part.data === undefined) !== (part.url === undefined);
}
const ONE_SOURCE = { error: 'give exactly one of data (base64) and url' };

/** The zod schema of one content part (SPEC §15): text, image or file. */
export const contentPartSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z
    .strictObject({
      type: z.literal('image'),
      mediaType: z.string().refine((value) => IMAGE_MEDIA_TYPES.includes(value), {
        error: `must be one of ${IMAGE_MEDIA_TYPES.join(', ')}`,
      }),
      // No provider takes an image of no bytes: refuse it here, not after the run has started.
      data: data.min(1, { error: 'holds no bytes' }).optional(),
      url: url.optional(),
    })
    .refine(oneSource, ONE_SOURCE),
  z
    .strictObject({
      type: z.literal('file'),
      mediaType: z.string().regex(MEDIA_TYPE, { error: 'must be a media type such as application/pdf' }),
      data: data.optional(),
      url: url.optional(),
      name: z.string().min(1).max(255).optional(),
    })
    .refine(oneSource, ONE_SOURCE),
]);

const partsSchema = z.array(contentPartSchema).min(1, { error: 'must hold at least one part' });

/**
 * Validates a user message's or a tool result's content at the boundary: a non-empty string, or
 * parts that pass {@link contentPartSchema}, each image or file at most `maxBytes` decoded bytes.
 * Throws `invalid_content` naming `where` (such as `run() input`) and the part.
 */
export function checkContent(value: unknown, where: string, maxBytes: number): MessageContent {
  if (typeof value === 'string') return value;
  const parsed = partsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const at =
      path.length === 0
        ? ''
        : ` part ${String(path[0])}${path.length > 1 ? ` ${path.slice(1).map(String).join('.')}` : ''}`;
    throw new HarnessError('invalid_content', `${where}${at}: ${issue?.message ?? 'is not valid content'}`);
  }
  const parts = parsed.data as readonly ContentPart[];
  parts.forEach((part, index) => {
    if (part.type === 'text' || part.data === undefined) return;
    const bytes = base64Bytes(part.data);
    if (bytes > maxBytes) {
      const name = part.type === 'file' && part.name !== undefined ? ` (${JSON.stringify(part.name)})` : '';
      throw new HarnessError(
        'invalid_content',
        `${where} part ${index}${name}: the ${part.type} is ${bytes} bytes, over the cap of ${maxBytes} (maxAttachmentBytes)`,
      );
    }
  });
  return parts;
}
