import type { ReasoningContent } from './messages.js';

const REASONING_FIELDS = ['text', 'summary', 'signature', 'encrypted', 'id'] as const;

/** Parts {@link reasoningPart} made: checked once, never again on their way to the journal. */
const CHECKED = new WeakSet<object>();

/** Whether `part` came from {@link reasoningPart} (checked and frozen). */
export function isCheckedReasoning(part: object): boolean {
  return CHECKED.has(part);
}

/**
 * A reasoning part as the journal keeps it, copied with only its known fields and frozen; or,
 * when `raw` is not one, what is wrong with it (for the caller's error). A part is `reasoning`
 * (text fields only) or `redacted_reasoning` (its `data`), with the provider that made it.
 */
export function reasoningPart(raw: unknown): ReasoningContent | string {
  if (typeof raw !== 'object' || raw === null) return 'a reasoning part must be an object';
  const part = raw as Record<string, unknown>;
  const provider = part.provider;
  if (typeof provider !== 'string' || provider === '') return 'a reasoning part needs the provider that made it';
  if (part.type === 'redacted_reasoning') {
    if (typeof part.data !== 'string') return 'a redacted reasoning part needs its data (text)';
    return checked({ type: 'redacted_reasoning', provider, data: part.data });
  }
  if (part.type !== 'reasoning') return `unknown reasoning part type '${String(part.type)}'`;
  const kept: Record<string, string> = { type: 'reasoning', provider };
  for (const field of REASONING_FIELDS) {
    const value = part[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `a reasoning part's ${field} must be text`;
    kept[field] = value;
  }
  return checked(kept as unknown as ReasoningContent);
}

function checked(part: ReasoningContent): ReasoningContent {
  Object.freeze(part);
  CHECKED.add(part);
  return part;
}
