import { Budget } from '../config/budget.js';
import { DEFAULT_MAX_INVALID_TOOL_CALLS, DEFAULT_MAX_PARALLEL_TOOLS, DEFAULT_MAX_TURNS } from '../config/config.js';
import { ZERO_USAGE } from '../core/usage.js';
import type { AgentContext, AgentMachineInput, GuardrailGate } from './agent-machine-types.js';
import { gateCalls } from './approval-gate.js';
import { NO_INVALID_CALLS } from './invalid-calls.js';
import { DEFAULT_OUTPUT_RETRIES } from './output-rules.js';
import { NO_BATCH, newBatch } from './tool-batch.js';

const GATE_IDLE = { inputChecking: false, heldTurn: undefined, checking: Object.freeze([]) } as const;

/** A run without guardrails. */
const NO_GUARDRAIL_GATE: GuardrailGate = Object.freeze({
  input: false,
  output: false,
  toolResult: false,
  inputPending: false,
  ...GATE_IDLE,
});

/** The name of a session's own agent, before any handoff. */
export const MAIN_AGENT = 'main';

/** The machine's context at the start of a run, from its input (defaults for what it leaves out). */
export function initialContext(input: AgentMachineInput | undefined): AgentContext {
  return {
    limits: {
      budget: input?.budget ?? new Budget({ maxTurns: DEFAULT_MAX_TURNS }),
      maxParallelTools: input?.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS,
      maxInvalidToolCalls: input?.maxInvalidToolCalls ?? DEFAULT_MAX_INVALID_TOOL_CALLS,
      outputRetries: input?.outputRetries ?? DEFAULT_OUTPUT_RETRIES,
      contextLimit: input?.contextLimit,
      tree: input?.tree,
    },
    invalidCalls: input?.invalidCalls ?? NO_INVALID_CALLS,
    outputRetriesUsed: 0,
    output: undefined,
    turns: 0,
    usage: ZERO_USAGE,
    elapsedMs: 0,
    // A resumed run's pending calls go through the gate again, under the policy of now.
    tools:
      input?.resume === undefined || input.resume.calls.length === 0 ? NO_BATCH : newBatch(gateCalls(input.resume)),
    resuming: (input?.resume?.calls.length ?? 0) > 0,
    toolsWithheld: false,
    aborting: input?.ending,
    stop: input?.refusal,
    response: undefined,
    contextTokens: input?.contextTokens ?? 0,
    tokenScale: input?.tokenScale ?? 1,
    reportedTokenScale: undefined,
    agent: input?.agent ?? MAIN_AGENT,
    guardrails: input?.guardrails === undefined ? NO_GUARDRAIL_GATE : { ...input.guardrails, ...GATE_IDLE },
  };
}
