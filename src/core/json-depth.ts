/**
 * How deep arrays and objects may nest in what a model sends (tool arguments, a structured
 * answer) before it is refused: every recursive walk over a value (the journal's stable JSON,
 * freezing, a schema check) overflows the stack on deep enough data, and a failed journal write
 * would end the run with `store_error`.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * What the journal records for tool arguments nested deeper than {@link MAX_JSON_DEPTH}, in place
 * of them (they may not even have a JSON form); the registry answers it as too deep.
 */
export const TOO_DEEP_ARGUMENTS = `(arguments nested deeper than ${MAX_JSON_DEPTH} levels, not recorded)`;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, by one pass over the text
 * (brackets inside strings do not count). Checked before parsing a message from outside: a
 * parser may cope with 200,000 levels, but every recursive walk over the value afterwards
 * (`JSON.stringify`, a definition reader) overflows the stack.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether a value nests arrays and objects deeper than `limit`, by a walk that keeps its own
 * stack (so that the check itself cannot overflow the call stack). A cycle counts as too deep.
 */
export function valueDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, depth } = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const key in item) pending.push({ value: (item as Record<string, unknown>)[key], depth: depth + 1 });
  }
  return false;
}
