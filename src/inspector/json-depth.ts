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
