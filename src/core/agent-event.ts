import type { JsonObject, ToolCall } from './messages.js';
import type { ToolException } from './tool-exception.js';
import { type TokenUsage, ZERO_USAGE } from './usage.js';

/** Lifecycle events an agent run publishes. */
export const AgentEventType = {
  AGENT_START: 'agent_start',
  TEXT_DELTA: 'text_delta',
  TEXT_COMPLETE: 'text_complete',
  REASONING_DELTA: 'reasoning_delta',
  TOOL_CALL_DELTA: 'tool_call_delta',
  TOOL_CALL_START: 'tool_call_start',
  TOOL_CALL_COMPLETE: 'tool_call_complete',
  TOOL_APPROVAL_REQUEST: 'tool_approval_request',
  TOOL_APPROVAL_DECISION: 'tool_approval_decision',
  BUDGET_WARNING: 'budget_warning',
  AGENT_END: 'agent_end',
  AGENT_ERROR: 'agent_error',
} as const;

/** One of the {@link AgentEventType} values. */
export type AgentEventType = (typeof AgentEventType)[keyof typeof AgentEventType];

/** Every reason a run can end without a final answer (one list: journals are checked against it). */
export const STOP_REASONS = [
  'turn_budget',
  'cost_budget',
  'token_budget',
  'time_budget',
  'aborted',
  'model_error',
  'internal_error',
  'suspended',
  'invalid_tool_calls',
  'output_invalid',
  'store_error',
  'context_overflow',
  'guardrail',
  'mcp_error',
] as const;

/** Why a run ended without a final answer: one of {@link STOP_REASONS}. */
export type StopReason = (typeof STOP_REASONS)[number];

/** Which budget a warning or stop is about. */
export type BudgetKind = 'turns' | 'cost' | 'tokens' | 'time';

/** Payload of each {@link AgentEventType}. */
export interface AgentEventDataMap {
  /** A run began. */
  agent_start: {
    /** The user message the run started with (empty for a resumed run). */
    readonly input: string;
    /** Present and true when the run resumes an interrupted one. */
    readonly resumed?: true;
    /**
     * The sandbox each command-running tool uses, by tool name (`{ shell: 'bwrap' }`, or
     * `'none'`, also when `auto` found no bubblewrap); absent when no tool declares one.
     */
    readonly sandbox?: Readonly<Record<string, string>>;
  };
  /** A piece of the model's text, as it streams. */
  text_delta: { readonly content: string };
  /** The model's whole text of one turn. */
  text_complete: { readonly content: string };
  /**
   * A piece of the model's reasoning (its text or summary), as it streams; not journaled: the
   * finished parts join the turn's assistant entry.
   */
  reasoning_delta: { readonly content: string };
  /**
   * A piece of a tool call's arguments, as the model streams them (not journaled, like
   * `text_delta`); the pieces of one call, joined, are its arguments' JSON text.
   */
  tool_call_delta: { readonly callId: string; readonly name: string; readonly argumentsDelta: string };
  /** A tool call is about to run. */
  tool_call_start: { readonly callId: string; readonly name: string; readonly arguments: ToolCall['arguments'] };
  /** A tool call finished (success or error). */
  tool_call_complete: {
    readonly callId: string;
    readonly name: string;
    readonly success: boolean;
    readonly output?: string;
    readonly error?: string;
    /**
     * What the tool threw (name, message, stack), when `error` is `Internal error: …`. On the
     * stream only: the journal keeps the tool message, so it stays byte-stable on replay and holds
     * no host paths from a stack.
     */
    readonly exception?: ToolException;
  };
  /** A call waits for `agent.approve(callId)` or `agent.deny(callId, reason)` (tool policy `ask`). */
  tool_approval_request: {
    readonly callId: string;
    readonly name: string;
    readonly arguments: ToolCall['arguments'];
    /**
     * For a sub-agent's call: the agent tools, outermost first, that lead to the agent asking
     * (decide it with this agent's `approve`/`deny`); absent for this agent's own calls.
     */
    readonly path?: readonly string[];
    /** The policy rule that asked (`shell`, `kind:write`, `shell: noRm`, `fallback`). */
    readonly rule?: string;
  };
  /** A call that asked was decided (also a decision given to `resume({ approvals })`). */
  tool_approval_decision: {
    readonly callId: string;
    readonly name: string;
    readonly approved: boolean;
    /** Why it was denied. */
    readonly reason?: string;
    /** The policy function that decided (absent for a person's decision). */
    readonly rule?: string;
    /** The arguments as the approver edited them: the call runs with these. */
    readonly arguments?: JsonObject;
  };
  /** A soft budget limit was crossed; tools are withheld from now on. */
  budget_warning: {
    /** The budget that crossed the soft limit first. */
    readonly budget: BudgetKind;
    /** How much of that budget is used, 0..1 (or more). */
    readonly used: number;
    /** The configured soft limit ratio. */
    readonly softLimitRatio: number;
    readonly message: string;
  };
  /** The run ended with a final answer (the last event). */
  agent_end: {
    readonly response: string;
    readonly usage: TokenUsage;
    readonly turnCount: number;
    /** The parsed final answer, when the run asked for structured output (`run(input, { output })`). */
    readonly output?: unknown;
  };
  /** The run ended without one (the last event). */
  agent_error: { readonly reason: StopReason; readonly message: string };
}

/** A lifecycle event: a plain `{type, data}` object. */
export type AgentEvent<T extends AgentEventType = AgentEventType> = {
  [K in T]: { readonly type: K; readonly data: AgentEventDataMap[K] };
}[T];

function make<K extends AgentEventType>(type: K, data: AgentEventDataMap[K]): AgentEvent<K> {
  return { type, data } as AgentEvent<K>;
}

/** Factories for {@link AgentEvent}s. */
export const AgentEvent = {
  agentStart: (input: string, resumed = false, sandbox?: Readonly<Record<string, string>>): AgentEvent<'agent_start'> =>
    make('agent_start', {
      input,
      ...(resumed ? { resumed: true as const } : {}),
      ...(sandbox === undefined ? {} : { sandbox }),
    }),
  textDelta: (content: string): AgentEvent<'text_delta'> => make('text_delta', { content }),
  textComplete: (content: string): AgentEvent<'text_complete'> => make('text_complete', { content }),
  reasoningDelta: (content: string): AgentEvent<'reasoning_delta'> => make('reasoning_delta', { content }),
  toolCallDelta: (delta: AgentEventDataMap['tool_call_delta']): AgentEvent<'tool_call_delta'> =>
    make('tool_call_delta', { callId: delta.callId, name: delta.name, argumentsDelta: delta.argumentsDelta }),
  toolCallStart: (call: ToolCall): AgentEvent<'tool_call_start'> =>
    make('tool_call_start', { callId: call.callId, name: call.name, arguments: call.arguments }),
  /** `(call, result)`, or the whole data object. */
  toolCallComplete: (
    call: Pick<ToolCall, 'callId' | 'name'> | AgentEventDataMap['tool_call_complete'],
    result: {
      readonly success: boolean;
      readonly output?: string;
      readonly error?: string;
      readonly exception?: ToolException;
    } = call as {
      success: boolean;
    },
  ): AgentEvent<'tool_call_complete'> => {
    const { callId, name } = call;
    const { success, output, error, exception } = result;
    if (exception !== undefined) {
      const data = {
        callId,
        name,
        success,
        ...(output === undefined ? {} : { output }),
        ...(error === undefined ? {} : { error }),
        exception,
      };
      return make('tool_call_complete', data);
    }
    // Whole literals, not spreads: a spread that adds keys is V8's slow path (docs/performance-history.md).
    if (error === undefined) {
      return make(
        'tool_call_complete',
        output === undefined ? { callId, name, success } : { callId, name, success, output },
      );
    }
    return make(
      'tool_call_complete',
      output === undefined ? { callId, name, success, error } : { callId, name, success, output, error },
    );
  },
  toolApprovalRequest: (call: ToolCall, path?: readonly string[], rule?: string): AgentEvent<'tool_approval_request'> =>
    make('tool_approval_request', {
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
      ...(path === undefined ? {} : { path }),
      ...(rule === undefined ? {} : { rule }),
    }),
  /** `(call, approved, reason?, { rule, arguments }?)`: a denial's reason, the deciding rule, edited arguments. */
  toolApprovalDecision: (
    call: Pick<ToolCall, 'callId' | 'name'>,
    approved: boolean,
    reason?: string,
    details?: { readonly rule?: string; readonly arguments?: JsonObject },
  ): AgentEvent<'tool_approval_decision'> =>
    make('tool_approval_decision', {
      callId: call.callId,
      name: call.name,
      approved,
      ...(approved || reason === undefined ? {} : { reason }),
      ...(details?.rule === undefined ? {} : { rule: details.rule }),
      ...(!approved || details?.arguments === undefined ? {} : { arguments: details.arguments }),
    }),
  budgetWarning: (data: AgentEventDataMap['budget_warning']): AgentEvent<'budget_warning'> =>
    make('budget_warning', data),
  /** `(response, usage, turnCount)`, or the whole data object. */
  agentEnd: (
    response: string | AgentEventDataMap['agent_end'],
    usage?: TokenUsage,
    turnCount?: number,
  ): AgentEvent<'agent_end'> =>
    typeof response === 'string'
      ? make('agent_end', { response, usage: usage ?? ZERO_USAGE, turnCount: turnCount ?? 0 })
      : make('agent_end', {
          response: response.response,
          usage: response.usage,
          turnCount: response.turnCount,
          ...(response.output !== undefined ? { output: response.output } : {}),
        }),
  /** `(reason, message)`, or the whole data object. */
  agentError: (reason: StopReason | AgentEventDataMap['agent_error'], message = ''): AgentEvent<'agent_error'> =>
    typeof reason === 'string'
      ? make('agent_error', { reason, message })
      : make('agent_error', { reason: reason.reason, message: reason.message }),
} as const;

/** Whether `event` is a piece of a model's streamed turn (text, reasoning or a tool call's arguments). */
export function isStreamDelta(
  event: AgentEvent,
): event is AgentEvent<'text_delta' | 'reasoning_delta' | 'tool_call_delta'> {
  return event.type === 'text_delta' || event.type === 'reasoning_delta' || event.type === 'tool_call_delta';
}

/** True for the two events that end a run. */
export function isTerminal(event: AgentEvent): event is AgentEvent<'agent_end' | 'agent_error'> {
  return event.type === 'agent_end' || event.type === 'agent_error';
}
