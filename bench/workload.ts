import { z } from 'zod';
import { defineTool, type StreamEvent, type TokenUsage, ToolKind } from '../src/index.js';
import type { ToolLike } from '../src/tools/index.js';

/** Usage the scripted model reports on every turn: 5 prompt + 2 completion tokens. */
export const TURN_USAGE: TokenUsage = Object.freeze({ promptTokens: 5, completionTokens: 2, totalTokens: 7 });

/** The user prompt every run starts with. */
export const PROMPT = 'Run the checkpoints, then say complete.';

/** The final answer. */
export const FINAL_ANSWER = 'complete';

/** The checkpoint tool's argument schema (zod-validated on every call). */
export const checkpointSchema = z.object({ step: z.number().int().min(1) });

/** What the checkpoint tool answers for step `step`. */
export function checkpointOutput(step: number): string {
  return `step ${step} complete`;
}

/** The workload's only tool: `checkpoint {step}` → `step i complete`. */
export function checkpointTool(): ToolLike<typeof checkpointSchema> {
  return defineTool({
    name: 'checkpoint',
    description: 'Record one deterministic progress step.',
    kind: ToolKind.READ,
    schema: checkpointSchema,
    execute: ({ params }) => checkpointOutput(params.step),
  });
}

/** The call id of step `step` (1-based). */
export function callIdOf(step: number): string {
  return `call_${step}`;
}

/**
 * The streamed events of turn `step` (1-based) of a T-turn run, prebuilt so that the scripted
 * model costs nothing: a tool call and `message_complete` for steps 1..T, then the text `complete`.
 */
export class TurnScript {
  private readonly turns: (readonly StreamEvent[])[] = [];
  private readonly final: readonly StreamEvent[] = [
    { type: 'text_delta', textDelta: { content: FINAL_ANSWER } },
    { type: 'message_complete', usage: TURN_USAGE, finishReason: 'stop' },
  ];

  /** The events of turn `step` when the run has `toolTurns` tool turns. */
  eventsFor(step: number, toolTurns: number): readonly StreamEvent[] {
    if (step > toolTurns) return this.final;
    let events = this.turns[step];
    if (events === undefined) {
      events = [
        {
          type: 'tool_call_complete',
          toolCall: { callId: callIdOf(step), name: 'checkpoint', arguments: { step } },
        },
        { type: 'message_complete', usage: TURN_USAGE, finishReason: 'tool_calls' },
      ];
      this.turns[step] = events;
    }
    return events;
  }
}
