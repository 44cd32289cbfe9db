import { HarnessError } from '../../core/errors.js';

/** One step of a path: a key, an index, or `*` (every key or index). */
type Segment = string | number;

const TOKEN = /^(?:\.([A-Za-z_$][\w$-]*|\*)|\[(\d+|\*)\])/;

/**
 * Parses a JSON path as `ignore` takes it: `messages[0].content`, `tools[*].description`,
 * `entry.content` (a leading `$.` is allowed). Throws `invalid_argument` naming a malformed one.
 */
export function parseJsonPath(path: string): Segment[] {
  let rest = path.startsWith('$') ? path.slice(1) : `.${path}`;
  const segments: Segment[] = [];
  while (rest.length > 0) {
    const match = TOKEN.exec(rest);
    if (match === null) {
      throw new HarnessError('invalid_argument', `ignore path '${path}' is not a JSON path (like messages[0].content)`);
    }
    const index = match[2];
    segments.push(index === undefined ? (match[1] as string) : index === '*' ? '*' : Number(index));
    rest = rest.slice(match[0].length);
  }
  if (segments.length === 0) throw new HarnessError('invalid_argument', `ignore path '${path}' names nothing`);
  return segments;
}

function without(value: unknown, path: readonly Segment[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (head !== '*' && typeof head !== 'number') return value;
    return value.flatMap((item, i) => {
      if (head !== '*' && head !== i) return [item];
      return rest.length === 0 ? [] : [without(item, rest)];
    });
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (head !== '*' && head !== key) out[key] = item;
    else if (rest.length > 0) out[key] = without(item, rest);
  }
  return out;
}

/** A copy of `value` without what the paths name (a path that names nothing changes nothing). */
export function withoutPaths(value: unknown, paths: readonly (readonly Segment[])[]): unknown {
  return paths.reduce((current, path) => without(current, path), value);
}
