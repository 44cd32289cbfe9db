import type { AgentContext, AgentMachineEvent, StopInfo } from './agent-machine-types.js';

/** Default number of times a final answer that fails the run's output schema is sent back. */
export const DEFAULT_OUTPUT_RETRIES = 2;

/** The validation problem of a final answer that failed the run's output schema, else undefined. */
export function rejectedOutput(event: AgentMachineEvent): string | undefined {
  if (event.type !== 'MODEL_TURN' || event.turn.toolCalls.length > 0) return undefined;
  const check = event.turn.outputCheck;
  return check !== undefined && !check.ok ? check.problem : undefined;
}

/** Whether a failing answer may still be sent back (each retry is one more turn). */
export function outputRetryLeft(context: AgentContext): boolean {
  return context.outputRetriesUsed < context.limits.outputRetries;
}

/** The `output_invalid` stop for a final answer that still fails after the retries. */
export function outputInvalidStop(context: AgentContext, problem: string): StopInfo {
  const tries = context.outputRetriesUsed + 1;
  return {
    reason: 'output_invalid',
    message: `the final answer did not match the output schema after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${problem}`,
  };
}
