import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  type AgentEvent,
  type Message,
  type StreamEvent,
  StreamEventType,
  type TokenUsage,
  Tool,
  type ToolInvocation,
  ToolKind,
  ToolResult,
} from '../../src/index.js';

/** A fresh temporary workspace directory (real path, so symlink checks compare like with like). */
export function workspace(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'spec-ws-')));
}

/** Usage with `totalTokens` as the sum. */
export function use(prompt: number, completion: number): TokenUsage {
  return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
}

/** Drains an event stream into an array. */
export async function drain(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of run) out.push(event);
  return out;
}

/** The types of a list of events. */
export function typesOf(events: readonly { type: string }[]): string[] {
  return events.map((event) => event.type);
}

/** A stream event built by hand, the way a user-written client would (no factories). */
export function textChunk(content: string): StreamEvent {
  return { type: StreamEventType.TEXT_DELTA, textDelta: { content } };
}

/** A complete tool call chunk, built by hand. */
export function callChunk(callId: string, name: string, args: Record<string, unknown> | string): StreamEvent {
  return {
    type: StreamEventType.TOOL_CALL_COMPLETE,
    toolCall: { callId, name, arguments: args as Record<string, never> },
  };
}

/** The end of a model turn, built by hand. */
export function doneChunk(usage?: TokenUsage): StreamEvent {
  return usage ? { type: StreamEventType.MESSAGE_COMPLETE, usage } : { type: StreamEventType.MESSAGE_COMPLETE };
}

/**
 * A hand-written client in the seed's shape: a class with a `calls` counter and an async
 * generator `chatCompletion(messages, tools)`; `turn(n, messages, tools)` gives turn n's events.
 */
export class FnClient {
  calls = 0;
  readonly seen: { messages: Message[]; tools: unknown }[] = [];
  constructor(private readonly turn: (n: number, messages: readonly Message[], tools: unknown) => StreamEvent[]) {}
  async *chatCompletion(messages: readonly Message[], tools?: unknown): AsyncGenerator<StreamEvent> {
    this.calls += 1;
    this.seen.push({ messages: messages.map((m) => ({ ...m })), tools });
    for (const event of this.turn(this.calls, messages, tools)) yield event;
  }
}

const stepSchema = z.object({ step: z.number().int().min(1) });

/** The seed's checkpoint tool, written as a subclass. */
export class Checkpoint extends Tool<typeof stepSchema> {
  name = 'checkpoint';
  description = 'Record one deterministic progress step.';
  kind = ToolKind.READ;
  schema = stepSchema;
  async execute(invocation: ToolInvocation<z.output<typeof stepSchema>>): Promise<ToolResult> {
    return ToolResult.success(`step ${invocation.params.step} complete`);
  }
}
