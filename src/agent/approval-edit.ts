import { HarnessError } from '../core/errors.js';
import type { JsonObject, ToolCall } from '../core/messages.js';
import { describeIssues } from '../core/tool-params.js';
import type { ToolRegistry } from '../tools/registry.js';

/** Options of `agent.approve`. */
export interface ApproveOptions {
  /**
   * The call's arguments as the approver edited them (one call only). Checked against the
   * tool's schema; the call runs with them, the journal keeps them beside the model's, and the
   * model sees them as its call's arguments in later requests.
   */
  readonly arguments?: JsonObject;
}

const isPlainObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an edit of a waiting call's arguments against its tool's schema: throws
 * `invalid_argument` naming the call, the tool and each schema issue (the call keeps waiting).
 * Returns a JSON copy of the edit, which the journal and the tool get.
 */
export function checkedEdit(call: ToolCall, edit: unknown, tools: ToolRegistry): JsonObject {
  const where = `approve('${call.callId}', { arguments })`;
  if (!isPlainObject(edit)) {
    throw new HarnessError('invalid_argument', `${where} takes an object of arguments, got ${JSON.stringify(edit)}`);
  }
  let copy: JsonObject;
  try {
    copy = JSON.parse(JSON.stringify(edit)) as JsonObject;
  } catch (error) {
    throw new HarnessError('invalid_argument', `${where}: the arguments are not JSON (${String(error)})`);
  }
  const tool = tools.get(call.name);
  if (tool === undefined) return copy; // an unknown tool is answered as unknown, edited or not
  let checked: { success: boolean; error?: unknown };
  try {
    checked = tool.schema.safeParse(copy);
  } catch (error) {
    throw new HarnessError('invalid_argument', `${where}: the schema of tool '${call.name}' threw: ${String(error)}`);
  }
  if (!checked.success) {
    const issues = describeIssues(checked.error as Parameters<typeof describeIssues>[0]);
    throw new HarnessError(
      'invalid_argument',
      `${where}: the edited arguments do not fit the schema of tool '${call.name}': ${issues.replace(/^Invalid parameters: /, '')}`,
    );
  }
  return copy;
}
