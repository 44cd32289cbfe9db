import type { ScriptedTurn } from '../adapters/scripted-client.js';
import type { JsonObject, JsonValue } from '../core/messages.js';
import { StreamEvent } from '../core/stream-event.js';
import type { TokenUsage } from '../core/usage.js';

/** One tool call in a script. `arguments` may be any JSON (to test invalid input) or raw text. */
export interface ScriptCall {
  /** The tool to call (it need not exist). */
  readonly name: string;
  readonly arguments: JsonValue;
}

/** A model turn that ends the run with an answer. */
export interface AnswerTurn {
  readonly kind: 'answer';
  /** Text deltas, in order. */
  readonly text: readonly string[];
  /** Usage reported with `message_complete`. */
  readonly usage: TokenUsage;
}

/** A model turn that asks for tools. Call ids are `call-<turn>-<index>`, from 1. */
export interface ToolsTurn {
  readonly kind: 'tools';
  /** Text deltas streamed before the calls. */
  readonly text: readonly string[];
  /** The calls, in the model's order. */
  readonly calls: readonly ScriptCall[];
  /** Usage reported with `message_complete`. */
  readonly usage: TokenUsage;
}

/** A model turn that fails: an `error` stream event (`error`) or a stream that throws (`throw`). */
export interface FailingTurn {
  readonly kind: 'error' | 'throw';
  /** Text streamed before the failure. */
  readonly text: readonly string[];
  /** The error's message. */
  readonly message: string;
}

/**
 * A model turn that streams its text and then never finishes: only an abort or the wall-clock
 * budget ends the run. Use it only with one of those, or the run waits forever.
 */
export interface StallingTurn {
  readonly kind: 'stall';
  /** Text deltas streamed before the stream stalls. */
  readonly text: readonly string[];
}

/** One scripted model turn, as plain data: printable, comparable and shrinkable. */
export type ScriptTurn = AnswerTurn | ToolsTurn | FailingTurn | StallingTurn;

/** A model's behaviour over a run: one entry per request. */
export type Script = readonly ScriptTurn[];

/** The call id the script gives call `index` of turn `turn` (both from 0). */
export function scriptCallId(turn: number, index: number): string {
  return `call-${turn + 1}-${index + 1}`;
}

function deltas(text: readonly string[]): StreamEvent[] {
  return text.map((piece) => StreamEvent.textDelta(piece));
}

async function* stalling(text: readonly string[]): AsyncGenerator<StreamEvent> {
  yield* deltas(text);
  await new Promise<never>(() => {});
}

async function* throwing(text: readonly string[], message: string): AsyncGenerator<StreamEvent> {
  yield* deltas(text);
  throw new Error(message);
}

function toEvents(turn: ScriptTurn, index: number): ScriptedTurn {
  switch (turn.kind) {
    case 'answer':
      return [...deltas(turn.text), StreamEvent.messageComplete(turn.usage, 'stop')];
    case 'tools': {
      const calls = turn.calls.map((call, i) =>
        StreamEvent.toolCallComplete({
          callId: scriptCallId(index, i),
          name: call.name,
          // Deliberately unchecked: scripts may send arguments no real adapter would produce.
          arguments: call.arguments as JsonObject | string,
        }),
      );
      return [...deltas(turn.text), ...calls, StreamEvent.messageComplete(turn.usage, 'tool_calls')];
    }
    case 'error':
      return [...deltas(turn.text), StreamEvent.error(turn.message)];
    case 'throw':
      return () => throwing(turn.text, turn.message);
    case 'stall':
      return () => stalling(turn.text);
  }
}

/** The turns of a {@link ScriptedClient} that plays `script`. */
export function scriptedTurns(script: Script): ScriptedTurn[] {
  return script.map(toEvents);
}

function usageText(usage: TokenUsage): string {
  return `usage ${usage.promptTokens}+${usage.completionTokens}=${usage.totalTokens}`;
}

function formatTurn(turn: ScriptTurn, index: number): string {
  const text = turn.text.length === 0 ? '' : ` text ${JSON.stringify(turn.text.join(''))}`;
  const head = `  ${index + 1}. ${turn.kind}${text}`;
  if (turn.kind === 'answer') return `${head} ${usageText(turn.usage)}`;
  if (turn.kind === 'stall') return `${head} (then never finishes)`;
  if (turn.kind !== 'tools') return `${head} message ${JSON.stringify(turn.message)}`;
  const calls = turn.calls.map(
    (call, i) => `\n       ${scriptCallId(index, i)} ${call.name}(${JSON.stringify(call.arguments)})`,
  );
  return `${head} ${usageText(turn.usage)}${calls.join('')}`;
}

/** A script as readable lines, one per turn and per call (used to print counterexamples). */
export function formatScript(script: Script): string {
  if (script.length === 0) return 'script: (no turns)';
  return ['script:', ...script.map(formatTurn)].join('\n');
}
