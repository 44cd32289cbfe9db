import { UsageError } from './usage-error.js';

/**
 * Splits a command line into words as a POSIX shell would, without expanding anything:
 * whitespace separates words, `'…'` keeps its text as it is, `"…"` too except that `\` escapes
 * `"`, `\`, `$` and `` ` ``, and a `\` outside quotes keeps the next character. `flag` names the
 * option in the {@link UsageError} for an unclosed quote or an empty command.
 */
export function splitCommand(line: string, flag: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new UsageError(`${flag}: unclosed ${quote} in '${line}'`);
  if (inWord) words.push(word);
  if (words.length === 0)
    throw new UsageError(`${flag} needs a command, e.g. ${flag} "npx -y @modelcontextprotocol/server-filesystem ."`);
  return words;
}
