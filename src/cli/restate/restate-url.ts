import { UsageError } from '../usage-error.js';

/** Checks a `--restate URL` flag: an http(s) URL. */
export function restateUrl(value: string | undefined, what: string): string {
  if (value === undefined) throw new UsageError(`missing --restate URL (${what})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--restate must be a URL such as http://127.0.0.1:8080, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--restate must be an http:// or https:// URL, got '${value}'`);
  }
  return url.href.replace(/\/$/, '');
}
