import { z } from 'zod';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import type { JsonObject } from '../core/messages.js';
import type { RequestedOutput } from '../core/model-client.js';
import { describeIssues } from '../core/tool-params.js';
import type { OutputCheck } from '../machines/model-turn.js';

/** The name a structured answer goes by in requests (OpenAI's schema name, Anthropic's answer tool). */
export const OUTPUT_NAME = 'final_answer';

/** The run's structured output: its zod schema and the request shape sent to the model. */
export interface RunOutput {
  readonly schema: z.ZodType;
  readonly request: RequestedOutput;
}

/** The request shape of a zod schema: its JSON Schema (what the parsed answer must look like, as JSON). */
export function runOutput(schema: z.ZodType): RunOutput {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  return { schema, request: { name: OUTPUT_NAME, schema: json } };
}

/**
 * Where JSON may start in an answer, at most: the whole text, then this many `{` or `[`. Each try
 * parses the rest of the text, so trying every bracket of a long answer (`[[[[…`) is quadratic.
 */
export const MAX_JSON_STARTS = 32;

/**
 * The JSON in an answer's text: the whole text, or inside a ```json fence, or its tail from one of
 * the first {@link MAX_JSON_STARTS} `{` or `[` that starts valid JSON (text a model wrote before
 * it). `tooDeep` when a candidate nests deeper than {@link MAX_JSON_DEPTH} (it is not parsed);
 * undefined if none.
 */
function jsonOf(text: string): { value: unknown } | { tooDeep: true } | undefined {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*\n?/i, '')
    .replace(/\n?```\s*$/, '')
    .trim();
  let tooDeep = false;
  let tries = 0;
  for (let start = 0; start < trimmed.length && tries <= MAX_JSON_STARTS; start++) {
    const c = trimmed[start];
    if (start > 0 && c !== '{' && c !== '[') continue;
    tries++;
    const candidate = trimmed.slice(start);
    if (nestedDeeperThan(candidate, MAX_JSON_DEPTH)) {
      tooDeep = true;
      continue;
    }
    try {
      return { value: JSON.parse(candidate) };
    } catch {
      // not JSON from here
    }
  }
  return tooDeep ? { tooDeep } : undefined;
}

/**
 * Checks a final answer against the schema: the parsed value, or the problem to send back to the
 * model (`Invalid output: …`, in the words the registry uses for tool arguments).
 */
export function checkOutput(text: string, schema: z.ZodType): OutputCheck {
  const json = jsonOf(text);
  if (json === undefined) return { ok: false, problem: 'Invalid output: the answer is not JSON' };
  if ('tooDeep' in json) {
    const problem = `Invalid output: the answer nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
    return { ok: false, problem };
  }
  let checked: ReturnType<z.ZodType['safeParse']>;
  try {
    checked = schema.safeParse(json.value);
  } catch (error) {
    return { ok: false, problem: `Invalid output: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!checked.success)
    return { ok: false, problem: describeIssues(checked.error).replace(/^Invalid parameters/, 'Invalid output') };
  return { ok: true, value: checked.data };
}

/** How the harness-authored message that sends a failing answer back begins. */
export const OUTPUT_RETRY_PREFIX = 'Your answer does not match the required output.';

/** The harness-authored message that sends a failing answer back. */
export function outputRetryMessage(problem: string): string {
  return `${OUTPUT_RETRY_PREFIX} ${problem}. Answer again with only JSON that matches the schema.`;
}
