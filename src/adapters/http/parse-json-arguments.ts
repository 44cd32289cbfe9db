import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { JsonObject } from '../../core/messages.js';

/**
 * Tool-call arguments as the model streamed them: the parsed object, `{}` for nothing, or the
 * raw text when it is not a JSON object or nests deeper than {@link MAX_JSON_DEPTH} (the
 * registry then answers `Invalid parameters`).
 */
export function parseJsonArguments(raw: string): JsonObject | string {
  if (raw.trim() === '') return {};
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) return raw;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : raw;
  } catch {
    return raw;
  }
}
