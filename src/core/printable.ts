// Text from a server, a model, a tool or a journal is untrusted: on a terminal, escape sequences
// can rewrite the screen, change the title or hide text, and bidi overrides can make a line read
// differently from what it holds. Everything the CLI prints that quotes such text goes through
// these functions, which show each such character as a visible marker rather than drop it.

/**
 * C0 and C1 controls other than tab and newline, DEL (category Cc), every format character
 * (category Cf: bidi marks, embeddings, overrides and isolates, zero-width characters, the soft
 * hyphen, tags), and the line and paragraph separators.
 */
const CONTROLS = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029]/gu;
/** What {@link jsonLine} escapes beyond what `JSON.stringify` already does (it escapes C0). */
const JSON_UNSAFE = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/** The visible stand-in of a control character: `⟨U+001B⟩` (as the inspector page shows bidi controls). */
export function controlMarker(c: string): string {
  return `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * Text safe to print on a terminal: every control or format character (escape, C0/C1, DEL, bidi
 * controls, zero-width characters, line separators) is shown as a marker such as `⟨U+001B⟩` instead of acting, so that nothing is
 * hidden (a tool name `wri\0te_file` does not print as `write_file`) and what is left of an
 * escape sequence is plain text (`⟨U+001B⟩[2J`). Tabs and newlines are kept; `\r\n` is a newline.
 */
export function printable(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, controlMarker);
}

/** {@link printable} text on one line: every run of whitespace (newlines included) becomes one space. */
export function printableLine(text: string): string {
  return printable(text).replace(/\s+/g, ' ').trim();
}

/** At most `max` characters of {@link printableLine} text, with `…` when cut. */
export function excerpt(text: string, max = 120): string {
  const line = printableLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * `JSON.stringify(value)` with the characters a terminal would act on escaped as `\uXXXX`
 * (C1 controls, DEL, format characters such as bidi controls, line separators; JSON already escapes C0): the same JSON value, safe to print.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (c) => {
    // A format character past U+FFFF (a tag) is escaped as its two UTF-16 halves, as JSON spells it.
    let escaped = '';
    for (let i = 0; i < c.length; i++) escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}
