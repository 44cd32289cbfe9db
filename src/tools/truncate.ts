/**
 * Cuts text longer than `max` characters, keeping the start and saying how much was cut,
 * e.g. `…\n[truncated 1,900,000 characters]`. Text within the cap is returned unchanged.
 */
export function truncateOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never keep half of a surrogate pair (an emoji, say): the kept text stays valid UTF-16.
  const keep = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  const cut = text.length - keep;
  return `${text.slice(0, keep)}\n[truncated ${cut.toLocaleString('en-US')} characters]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
