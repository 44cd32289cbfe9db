import { request } from 'node:http';

/** A GET with a chosen Host header (fetch does not allow setting it). */
export function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A Server-Sent Event, parsed. */
export interface SentEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Reads Server-Sent Events from `url` until `enough(events)`; returns them parsed. */
export async function readEvents(
  url: string,
  enough: (events: readonly SentEvent[]) => boolean,
  onOpen: () => void = () => {},
): Promise<SentEvent[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  onOpen();
  const decoder = new TextDecoder();
  const events: SentEvent[] = [];
  let buffer = '';
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      events.push({ event, data: JSON.parse(data) });
      end = buffer.indexOf('\n\n');
    }
  }
  controller.abort();
  return events;
}
