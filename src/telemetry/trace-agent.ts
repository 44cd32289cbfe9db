import {
  type Context,
  context as contexts,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { Agent } from '../agent/agent.js';
import type { ChildAgentRun } from '../agent/agent-run-context.js';
import type { AgentEvent } from '../core/agent-event.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../core/usage.js';
import type { Unsubscribe } from '../events/event-bus.js';
import * as attr from './gen-ai-attributes.js';

/** Options of {@link traceAgent}. */
export interface TraceAgentOptions {
  /** Where spans go: `trace.getTracer('my-service')`, or a provider's tracer. */
  readonly tracer: Tracer;
  /** `gen_ai.agent.name`, and the second word of the `invoke_agent` span name. */
  readonly agentName?: string;
  /** `gen_ai.request.model`; default: the client's `model`, when it has one. */
  readonly model?: string;
  /** `gen_ai.provider.name`; default: the client's `provider`, when it has one. */
  readonly provider?: string;
  /** `gen_ai.conversation.id`, for example the session's store id. */
  readonly conversationId?: string;
  /**
   * Record message contents: the run's input, each turn's answer and tool calls, tool arguments
   * and results. Off by default: they may hold personal or secret data.
   */
  readonly recordContent?: boolean;
  /** The parent of each run's span; default: the active context when the run starts. */
  readonly context?: Context;
}

/** The model and provider a client says it talks to, when it says. */
interface Described {
  readonly model?: unknown;
  readonly provider?: unknown;
}

/**
 * Turns an agent's stream into OpenTelemetry spans after the GenAI semantic conventions: one
 * `invoke_agent` span per run, a `chat {model}` child per model request (usage, finish reason,
 * provider), and an `execute_tool {name}` child per tool call (its call id; a failed call has
 * error status). Spans are a projection of the stream: nothing else in the agent is hooked. A
 * sub-agent (`agentTool`) is traced too, its `invoke_agent` span nested under its call's
 * `execute_tool` span, as deep as agents nest.
 * Returns the subscription; unsubscribing ends the spans still open.
 */
export function traceAgent(agent: Agent, options: TraceAgentOptions): Unsubscribe {
  checkArguments(agent, options);
  const client = (agent.client ?? {}) as Described;
  const model = options.model ?? (typeof client.model === 'string' ? client.model : undefined);
  const provider = options.provider ?? (typeof client.provider === 'string' ? client.provider : undefined);
  const projection = new SpanProjection(options, model, provider);
  const subscription = agent.stream$.subscribe((record) => {
    if (record.journalIndex === undefined) projection.onEvent(record.entry as AgentEvent);
    else projection.onEntry(record.entry as JournalEntry);
  });
  // Sub-agents (agentTool): each child is traced the same way, its run's span under its call's span.
  const children = agent.children$.subscribe((child) => projection.traceChild(child));
  const stop = (): void => {
    subscription.unsubscribe();
    children.unsubscribe();
    projection.endRun('unsubscribed', 'tracing stopped before the run ended');
  };
  return Object.assign(stop, { unsubscribe: stop });
}

/** The spans of one agent: the open run, its open request, its running calls. */
class SpanProjection {
  private run: { span: Span; context: Context; usage: TokenUsage } | undefined;
  private chat: { span: Span; usage: TokenUsage } | undefined;
  private readonly tools = new Map<string, Span>();
  /** The tracing of child agents (agentTool), by the call that runs them. */
  private readonly children = new Map<string, Unsubscribe>();

  constructor(
    private readonly options: TraceAgentOptions,
    private readonly model: string | undefined,
    private readonly provider: string | undefined,
  ) {}

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'agent_start':
        this.startRun(event.data.input);
        break;
      case 'text_complete':
        if (this.chat !== undefined && this.options.recordContent === true)
          this.chat.span.setAttribute(attr.OUTPUT_MESSAGES, outputMessages(event.data.content, [], 'stop'));
        break;
      case 'tool_call_start':
        this.startTool(event.data.callId, event.data.name, event.data.arguments);
        break;
      case 'tool_call_complete':
        this.endTool(event.data);
        break;
      case 'agent_end':
        this.endRun();
        break;
      case 'agent_error':
        // A run suspended while it waits for approval has not failed: it goes on when resumed.
        if (event.data.reason === 'suspended') {
          this.run?.span.setAttribute(attr.STOP_REASON, 'suspended');
          this.endRun();
        } else this.endRun(event.data.reason, event.data.message);
        break;
      default:
        break;
    }
  }

  onEntry(entry: JournalEntry): void {
    switch (entry.type) {
      case 'turn_start':
        this.startChat();
        break;
      case 'usage':
        if (this.chat !== undefined) {
          this.chat.usage = addUsage(this.chat.usage, entry.usage);
          this.chat.span.setAttributes(usageAttributes(this.chat.usage));
        }
        if (this.run !== undefined) this.run.usage = addUsage(this.run.usage, entry.usage);
        break;
      case 'assistant_message':
        if (this.chat !== undefined && this.options.recordContent === true)
          this.chat.span.setAttribute(
            attr.OUTPUT_MESSAGES,
            outputMessages(entry.content, entry.toolCalls ?? [], 'tool_calls'),
          );
        break;
      case 'guardrail':
        // A verdict is a point in the run, not an operation: an event on the run's span (no reason: it may quote content).
        this.run?.span.addEvent(attr.GUARDRAIL_EVENT, {
          [attr.GUARDRAIL_NAME]: entry.guardrail,
          [attr.GUARDRAIL_STAGE]: entry.stage,
          [attr.GUARDRAIL_OUTCOME]: entry.outcome,
          ...(entry.callId === undefined ? {} : { [attr.TOOL_CALL_ID]: entry.callId }),
        });
        break;
      case 'transition':
        // A request ends when the machine leaves awaitingModel: into tools, or done with an
        // answer. Into `error`, the run's `agent_error` ends it with the reason.
        if (entry.from === 'awaitingModel' && entry.to === 'executingTools') this.endChat('tool_calls');
        else if (entry.from === 'awaitingModel' && entry.to === 'done') this.endChat('stop');
        break;
      default:
        break;
    }
  }

  private startRun(input: string): void {
    this.endRun('unfinished', 'a new run started before this one ended');
    const parent = this.options.context ?? contexts.active();
    const name = this.options.agentName;
    const span = this.options.tracer.startSpan(
      name === undefined ? 'invoke_agent' : `invoke_agent ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [attr.OPERATION]: 'invoke_agent',
          ...(name !== undefined ? { [attr.AGENT_NAME]: name } : {}),
          ...this.modelAttributes(),
          ...(this.options.conversationId !== undefined ? { [attr.CONVERSATION_ID]: this.options.conversationId } : {}),
          ...(this.options.recordContent === true ? { [attr.INPUT_MESSAGES]: inputMessages(input) } : {}),
        },
      },
      parent,
    );
    this.run = { span, context: trace.setSpan(parent, span), usage: ZERO_USAGE };
  }

  private startChat(): void {
    if (this.run === undefined) return;
    this.endChat(undefined);
    const span = this.options.tracer.startSpan(
      this.model === undefined ? 'chat' : `chat ${this.model}`,
      { kind: SpanKind.CLIENT, attributes: { [attr.OPERATION]: 'chat', ...this.modelAttributes() } },
      this.run.context,
    );
    this.chat = { span, usage: ZERO_USAGE };
  }

  private endChat(finishReason: string | undefined, failure?: { reason: string; message: string }): void {
    if (this.chat === undefined) return;
    const { span } = this.chat;
    this.chat = undefined;
    if (finishReason !== undefined) span.setAttribute(attr.FINISH_REASONS, [finishReason]);
    if (failure !== undefined) fail(span, failure.reason, failure.message);
    span.end();
  }

  private startTool(callId: string, name: string, args: unknown): void {
    if (this.run === undefined) return;
    const span = this.options.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [attr.OPERATION]: 'execute_tool',
          [attr.TOOL_NAME]: name,
          [attr.TOOL_CALL_ID]: callId,
          [attr.TOOL_TYPE]: 'function',
          ...(this.options.recordContent === true ? { [attr.TOOL_ARGUMENTS]: jsonText(args) } : {}),
        },
      },
      this.run.context,
    );
    this.tools.set(callId, span);
  }

  /**
   * Traces a child agent started by a call: its `invoke_agent` span is a child of the call's
   * `execute_tool` span (announced before the call runs), and so on down the nesting.
   */
  traceChild(child: ChildAgentRun): void {
    const span = this.tools.get(child.callId);
    if (this.run === undefined || span === undefined) return;
    const { model: _model, provider: _provider, ...inherited } = this.options;
    this.children.get(child.callId)?.();
    const stop = traceAgent(child.agent, {
      ...inherited,
      agentName: child.name,
      conversationId: child.sessionId,
      context: trace.setSpan(this.run.context, span),
    });
    this.children.set(child.callId, stop);
  }

  /** Stops tracing a call's child agent (it has ended by the time its call settles). */
  private endChild(callId: string): void {
    const stop = this.children.get(callId);
    if (stop === undefined) return;
    this.children.delete(callId);
    stop();
  }

  private endTool(data: {
    callId: string;
    name: string;
    success: boolean;
    output?: string | undefined;
    error?: string | undefined;
  }): void {
    // A call answered without running (cancelled before it started) still gets its span.
    if (!this.tools.has(data.callId)) this.startTool(data.callId, data.name, undefined);
    const span = this.tools.get(data.callId);
    if (span === undefined) return;
    this.endChild(data.callId);
    this.tools.delete(data.callId);
    if (this.options.recordContent === true) {
      const result = data.success ? data.output : data.error;
      if (result !== undefined) span.setAttribute(attr.TOOL_RESULT, result);
    }
    if (!data.success) fail(span, 'tool_error', data.error ?? 'the tool call failed');
    span.end();
  }

  /** Ends the run's span and whatever is still open under it; a `reason` marks them failed. */
  endRun(reason?: string, message?: string): void {
    if (this.run === undefined) return;
    const failure = reason === undefined ? undefined : { reason, message: message ?? reason };
    this.endChat(undefined, failure);
    for (const callId of [...this.children.keys()]) this.endChild(callId);
    for (const span of this.tools.values()) {
      if (failure !== undefined) fail(span, failure.reason, failure.message);
      span.end();
    }
    this.tools.clear();
    const { span, usage } = this.run;
    this.run = undefined;
    span.setAttributes(usageAttributes(usage)); // this run's requests, not the session's
    if (failure !== undefined) fail(span, failure.reason, failure.message);
    span.end();
  }

  private modelAttributes(): Record<string, string> {
    return {
      ...(this.provider !== undefined ? { [attr.PROVIDER]: this.provider } : {}),
      ...(this.model !== undefined ? { [attr.REQUEST_MODEL]: this.model } : {}),
    };
  }
}

function checkArguments(agent: unknown, options: unknown): void {
  if (!(agent instanceof Agent))
    throw new HarnessError('invalid_argument', 'traceAgent(agent, options): agent must be an Agent');
  const tracer = (options as { tracer?: { startSpan?: unknown } } | null)?.tracer;
  if (typeof tracer?.startSpan !== 'function')
    throw new HarnessError(
      'invalid_argument',
      "traceAgent(agent, options): options.tracer must be an OpenTelemetry Tracer (trace.getTracer('my-service'))",
    );
  for (const key of ['agentName', 'model', 'provider', 'conversationId'] as const) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== 'string')
      throw new HarnessError('invalid_argument', `traceAgent: options.${key} must be a string, got ${typeof value}`);
  }
}

function fail(span: Span, reason: string, message: string): void {
  span.setAttribute(attr.ERROR_TYPE, reason);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function usageAttributes(usage: TokenUsage): Record<string, number> {
  const attributes: Record<string, number> = {
    [attr.INPUT_TOKENS]: usage.promptTokens,
    [attr.OUTPUT_TOKENS]: usage.completionTokens,
  };
  if (usage.cachedPromptTokens !== undefined) attributes[attr.CACHE_READ_TOKENS] = usage.cachedPromptTokens;
  if (usage.cacheWriteTokens !== undefined) attributes[attr.CACHE_WRITE_TOKENS] = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) attributes[attr.REASONING_TOKENS] = usage.reasoningTokens;
  return attributes;
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The run's input in the conventions' message format. */
function inputMessages(input: string): string {
  return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: input }] }]);
}

/** One turn's answer in the conventions' message format. */
function outputMessages(
  text: string,
  calls: readonly { callId: string; name: string; arguments: unknown }[],
  finishReason: string,
): string {
  const parts = [
    ...(text === '' ? [] : [{ type: 'text', content: text }]),
    ...calls.map((call) => ({ type: 'tool_call', id: call.callId, name: call.name, arguments: call.arguments })),
  ];
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: finishReason }]);
}
