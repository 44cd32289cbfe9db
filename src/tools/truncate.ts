/**
 * Cuts text longer than `max` characters, keeping the start and saying how much was cut,
 * e.g. `…\n[truncated 1,900,000 characters]`. Text within the cap is returned unchanged.
 */
export function truncateOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.length - max;
  return `${text.slice(0, max)}\n[truncated ${cut.toLocaleString('en-US')} characters]`;
}
