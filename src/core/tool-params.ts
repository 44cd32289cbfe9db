import { z } from 'zod';
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_ARGUMENTS } from './json-depth.js';
import type { JsonObject } from './messages.js';

/** A tool as a model sees it: name, description and JSON Schema of its parameters. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

/** JSON Schema (draft 2020-12) of what the model must send, from the zod schema. */
export function parametersSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  return rest;
}

/** `Invalid parameters: <path>: <problem>; …` for a failed validation. */
export function describeIssues(error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return `Invalid parameters: ${parts.join('; ')}`;
}

/** `Invalid parameters: …` for arguments nested deeper than {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP_PROBLEM = `Invalid parameters: arguments nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels; send flatter arguments`;

/**
 * Parses raw arguments: an object as is, a string as JSON. Returns the value or a problem.
 * Text nested deeper than {@link MAX_JSON_DEPTH} is refused before it is parsed.
 */
export function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (typeof raw !== 'string') return { ok: true, value: raw ?? {} };
  if (raw.trim() === '') return { ok: true, value: {} };
  if (raw === TOO_DEEP_ARGUMENTS || nestedDeeperThan(raw, MAX_JSON_DEPTH))
    return { ok: false, problem: TOO_DEEP_PROBLEM };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `Invalid parameters: arguments are not valid JSON (${why})` };
  }
}
