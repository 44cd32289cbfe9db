import type { Permission, PolicyAnswer, PolicyFunction } from '../../core/approval-types.js';
import type { ToolCall } from '../../core/messages.js';

/**
 * A policy that looks at one numeric argument: at most `max` is allowed, more gets `over`
 * (default `ask`). A call without the field is allowed; one whose field is not a finite number
 * gets `over` too (a limit must not be slipped past with `"1e9"`).
 *
 * @example permissions: { transfer: numericLimit('amount', 100) }
 */
export function numericLimit(field: string, max: number, over: Exclude<Permission, 'allow'> = 'ask'): PolicyFunction {
  return function numericLimit(call: ToolCall): PolicyAnswer {
    const value = typeof call.arguments === 'object' ? call.arguments[field] : undefined;
    if (value === undefined) return typeof call.arguments === 'object' ? 'allow' : over;
    if (typeof value === 'number' && Number.isFinite(value) && value <= max) return 'allow';
    return over === 'deny' ? { deny: `${field} is ${JSON.stringify(value)}, over the limit of ${max}` } : over;
  };
}
