import type { StreamEvent } from '../../src/index.js';
import { callIdOf, FINAL_ANSWER, TURN_USAGE } from '../workload.js';
import type { LatencyModel } from './latency.js';

/** The scale workload: `toolTurns` turns with one checkpoint call each, then the answer. */
export interface ScaleWorkload {
  /** Turns that ask for one tool call before the final answer. */
  readonly toolTurns: number;
  /** Text deltas the model streams per answer (every turn, tool turns included). */
  readonly deltas: number;
  readonly latency: LatencyModel;
}

/** Every delta but the final answer's last one. */
export const DELTA_TEXT = 'word ';

/** The text of a tool turn: `deltas` words. */
export function toolTurnText(deltas: number): string {
  return DELTA_TEXT.repeat(deltas);
}

/** The final answer: `deltas - 1` words, then `complete`, streamed as `deltas` deltas. */
export function finalAnswerText(deltas: number): string {
  return DELTA_TEXT.repeat(Math.max(0, deltas - 1)) + FINAL_ANSWER;
}

/** The turn (1-based) of a request, from the context: the user prompt, then an assistant and a tool message per step. */
export function stepOfLength(messages: number): number {
  return (messages - 1) / 2 + 1;
}

function textEvents(deltas: number, last: string): StreamEvent[] {
  return Array.from({ length: deltas }, (_, i) => ({
    type: 'text_delta' as const,
    textDelta: { content: i === deltas - 1 ? last : DELTA_TEXT },
  }));
}

/**
 * The harness's stream per turn, prebuilt and shared by every session so that the scripted
 * model costs next to nothing: `deltas` text deltas, then a checkpoint call and
 * `message_complete` (tool turns) or `message_complete` alone (the final answer).
 */
export class ScaleScript {
  private readonly turns: (readonly StreamEvent[])[] = [];
  private readonly final: readonly StreamEvent[];

  constructor(private readonly workload: ScaleWorkload) {
    this.final = [
      ...textEvents(workload.deltas, FINAL_ANSWER),
      { type: 'message_complete', usage: TURN_USAGE, finishReason: 'stop' },
    ];
  }

  /** The events of turn `step` (1-based). */
  eventsFor(step: number): readonly StreamEvent[] {
    if (step > this.workload.toolTurns) return this.final;
    let events = this.turns[step];
    if (events === undefined) {
      events = [
        ...textEvents(this.workload.deltas, DELTA_TEXT),
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

/** One implementation of the scale workload; `run(session)` plays session `session` and resolves with its turns. */
export interface ScaleContender {
  readonly name: string;
  run(session: number): Promise<number>;
}

/** Throws unless a session ended with the expected answer after `toolTurns + 1` turns. */
export function expectAnswer(name: string, workload: ScaleWorkload, answer: string | undefined, turns: number): number {
  const expected = finalAnswerText(workload.deltas);
  if (answer !== expected || turns !== workload.toolTurns + 1) {
    throw new Error(
      `${name}: expected the final answer after ${workload.toolTurns + 1} turns, got ${JSON.stringify(answer?.slice(-40))} after ${turns}`,
    );
  }
  return turns;
}
