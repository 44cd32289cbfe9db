import { configure } from 'safe-stable-stringify';

const stringify = configure({ deterministic: true, bigint: false, circularValue: Error });

/**
 * JSON with object keys sorted, so equal data always gives equal bytes.
 * Used to compare journals and to write them to disk.
 */
export function stableJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('stableJson: value has no JSON form');
  return text;
}
