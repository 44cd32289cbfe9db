import { SUMMARY_REQUEST } from '../../context/summarise-turns.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../../core/model-client.js';
import { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { type Script, scriptedTurns } from '../script.js';

/** A model request a walk's model received. */
export interface WalkRequest {
  /** How many entries the session's journal held when the request was made. */
  readonly at: number;
  /** The context sent, as sent. */
  readonly messages: readonly Message[];
  /** The names of the tools offered (none when tools were withheld). */
  readonly tools: readonly string[];
  /** True for the harness's own summary request (context compaction). */
  readonly summary: boolean;
}

/** The answer to a summary request: a fixed text, so a summary never depends on the path. */
export const WALK_SUMMARY = 'summary of the earlier turns';

const FALLBACK_ANSWER: Script[number] = {
  kind: 'answer',
  text: ['done'],
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
};

function isSummaryRequest(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  return last?.role === 'user' && last.content === SUMMARY_REQUEST;
}

/**
 * A scripted model whose answer depends on where the conversation is, not on how many requests
 * it got: turn `turnOf(messages)` of the script (past its end, the answer `done`). A run resumed
 * after a crash therefore gets the turn it had not recorded yet, as a real model given the same
 * context would. Summary requests get {@link WALK_SUMMARY}. Records every request.
 */
export class WalkModel implements ModelClient {
  /** Every request received, in order. */
  readonly requests: WalkRequest[] = [];
  private readonly turns;

  constructor(
    script: Script,
    private readonly turnOf: (messages: readonly Message[]) => number,
    private readonly at: () => number,
  ) {
    this.turns = scriptedTurns(script);
  }

  async *chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    _options: ChatCompletionOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const summary = isSummaryRequest(messages);
    this.requests.push({ at: this.at(), messages: messages.slice(), tools: (tools ?? []).map((t) => t.name), summary });
    if (summary) {
      yield StreamEvent.textDelta(WALK_SUMMARY);
      yield StreamEvent.messageComplete({ promptTokens: 1, completionTokens: 1, totalTokens: 2 }, 'stop');
      return;
    }
    const turn = this.turns[this.turnOf(messages)] ?? scriptedTurns([FALLBACK_ANSWER])[0];
    const events = typeof turn === 'function' ? await turn(messages, tools ?? []) : turn;
    for await (const event of events ?? []) yield event;
  }
}

/** The turn a sub-agent is at: its assistant messages so far (a sub-agent's context is never compacted here). */
export function turnOfMessages(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}
