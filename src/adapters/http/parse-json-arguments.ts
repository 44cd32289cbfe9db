import type { JsonObject } from '../../core/messages.js';

/**
 * Tool-call arguments as the model streamed them: the parsed object, `{}` for nothing, or the
 * raw text when it is not a JSON object (the registry then answers `Invalid parameters`).
 */
export function parseJsonArguments(raw: string): JsonObject | string {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : raw;
  } catch {
    return raw;
  }
}
