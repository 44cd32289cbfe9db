/** The response headers we read; `Headers` fits. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * How long the server asked us to wait, in milliseconds: `retry-after-ms` (OpenAI's), else
 * `Retry-After` as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderReader | undefined, nowMs: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '' && Number.isFinite(Number(millis))) return Math.max(0, Number(millis));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
