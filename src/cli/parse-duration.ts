import { UsageError } from './usage-error.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90`, `90s`, `1500ms`, `5m`, `1.5h` → milliseconds (a bare number is seconds). */
export function parseDuration(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  const value = match ? Number(match[1]) * (UNITS[match[2] ?? 's'] ?? 1000) : Number.NaN;
  if (!(value > 0))
    throw new UsageError(`${flag} must be a positive duration such as 90s, 5m or 1500ms, got '${text}'`);
  return value;
}
