import type { ReasoningContent } from './messages.js';

const REASONING_FIELDS = ['text', 'summary', 'signature', 'encrypted', 'id'] as const;

/** What joins the parts of a summary (or text) given in several into `summary` (or `text`). */
export const PARTS_JOIN = '\n\n';

/** The fields that may keep the parts they are the join of. */
const SPLIT_FIELDS = [
  ['summary', 'summaryParts'],
  ['text', 'textParts'],
] as const;

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
  const kept: Record<string, string | readonly string[]> = { type: 'reasoning', provider };
  for (const field of REASONING_FIELDS) {
    const value = part[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `a reasoning part's ${field} must be text`;
    kept[field] = value;
  }
  for (const [field, partsField] of SPLIT_FIELDS) {
    if (part[partsField] === undefined) continue;
    const parts = splitParts(part[partsField], kept[field], field, partsField);
    if (typeof parts === 'string') return parts;
    kept[partsField] = parts;
  }
  return checked(kept as unknown as ReasoningContent);
}

/** A part's `summaryParts` (or `textParts`), copied and frozen: two texts or more, whose join is its `summary` (or `text`). */
function splitParts(value: unknown, joined: unknown, field: string, partsField: string): readonly string[] | string {
  if (!Array.isArray(value) || value.length < 2 || !value.every((text) => typeof text === 'string'))
    return `a reasoning part's ${partsField} must be two texts or more`;
  if (joined !== value.join(PARTS_JOIN))
    return `a reasoning part's ${field} must be its ${partsField} joined by a blank line`;
  return Object.freeze([...value]);
}

function checked(part: ReasoningContent): ReasoningContent {
  Object.freeze(part);
  CHECKED.add(part);
  return part;
}
