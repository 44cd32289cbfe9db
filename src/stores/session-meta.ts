import { HarnessError } from '../core/errors.js';

/** Returns `meta` when it is an object of string values; otherwise throws `invalid_argument`. */
export function checkMeta(meta: unknown): Readonly<Record<string, string>> {
  if (meta === undefined) return {};
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    const bad = Object.entries(meta).find(([, value]) => typeof value !== 'string');
    if (!bad) return { ...(meta as Record<string, string>) };
    throw new HarnessError('invalid_argument', `session meta '${bad[0]}' must be a string, not ${typeof bad[1]}`);
  }
  throw new HarnessError('invalid_argument', 'session meta must be an object of strings');
}

/** Parses stored meta (JSON of an object of strings); `corrupt` makes the error when it is not. */
export function parseMeta(text: string, corrupt: (why: string) => Error): Readonly<Record<string, string>> {
  try {
    return checkMeta(JSON.parse(text));
  } catch {
    throw corrupt('its meta is not a JSON object of strings');
  }
}
