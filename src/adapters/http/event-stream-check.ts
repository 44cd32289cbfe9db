import { excerpt, printableLine } from '../../core/printable.js';
import { ModelError } from './model-error.js';

/** The parts of a fetch `Response` the check reads. */
export interface ResponseHead {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/** How much of a wrong body is read for the excerpt. */
const EXCERPT_BYTES = 2048;

async function readStart(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    let bytes = 0;
    while (bytes < EXCERPT_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}

/**
 * Refuses a successful answer to a streaming request that is not an event stream: a login page
 * of a proxy, or a whole JSON completion from a server that ignored `stream: true`. Without
 * this, its body parses as an empty stream and the turn "ended early". The error says what
 * arrived (status, content type, a short excerpt filtered for terminals); it is not retried.
 * An answer without a content type is let through: some servers leave it out of event streams.
 */
export async function requireEventStream(response: ResponseHead, where: string): Promise<void> {
  const type = response.headers.get('content-type');
  if (type === null || type.split(';')[0]?.trim().toLowerCase() === 'text/event-stream') return;
  const start = excerpt(await readStart(response.body), 160);
  throw new ModelError(
    'stream',
    `${where}: the server answered ${response.status} with ${printableLine(type)} instead of an event stream${start ? `: ${start}` : ''}`,
    { status: response.status },
  );
}
