import type { ToolCall } from '../../core/messages.js';
import type { ToolResult } from '../../core/tool-result.js';
import type { Finding } from './monitor-loop-rules.js';
import type { MonitorState } from './trace-monitor.js';

/**
 * The monitor's own reading of a result (an oracle: it does not call the machine's code): an
 * invalid call is one the registry answered `Invalid parameters…` or `Unknown tool …`.
 */
function isInvalid(result: ToolResult | undefined): boolean {
  if (result === undefined || result.success) return false;
  const error = result.error ?? '';
  return error.startsWith('Invalid parameters') || error.startsWith('Unknown tool ');
}

/** Counts the reported results `from`..`to` in call order: invalid adds one, success clears. */
export function countReported(
  monitor: MonitorState,
  calls: readonly ToolCall[],
  results: readonly (ToolResult | undefined)[],
  from: number,
  to: number,
): MonitorState {
  let invalid = monitor.invalid;
  for (let index = from; index < to; index++) {
    const name = calls[index]?.name ?? '';
    const result = results[index];
    if (isInvalid(result)) invalid = { ...invalid, [name]: (invalid[name] ?? 0) + 1 };
    else if (result?.success && invalid[name] !== undefined) {
      const { [name]: _cleared, ...rest } = invalid;
      invalid = rest;
    }
  }
  return invalid === monitor.invalid ? monitor : { ...monitor, invalid };
}

/** The tool that reached the bound, if any. */
export function overBound(monitor: MonitorState, max: number): string | undefined {
  return Object.keys(monitor.invalid).find((name) => (monitor.invalid[name] ?? 0) >= max);
}

/** A model request is made only while no tool has `max` invalid calls in a row. */
export function requestInvalidRules(monitor: MonitorState, request: number, max: number): Finding[] {
  const name = overBound(monitor, max);
  if (name === undefined) return [];
  return [
    {
      rule: 'invalid_calls',
      problem: `model request ${request} was made although '${name}' had ${monitor.invalid[name]} invalid calls in a row (maxInvalidToolCalls ${max})`,
    },
  ];
}
