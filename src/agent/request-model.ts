import type { AnyActorRef } from 'xstate';
import { estimateContextTokens, estimateMessageTokens, estimateToolTokens } from '../context/token-estimate.js';
import { boundTokenScale } from '../context/token-scale.js';
import { AgentEvent } from '../core/agent-event.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { type LazyAbort, withLazySignal } from '../core/lazy-abort.js';
import type { Message } from '../core/messages.js';
import type { ChatCompletionOptions } from '../core/model-client.js';
import { isPromiseLike } from '../core/promise-like.js';
import { usageOfModel } from '../core/usage.js';
import { isDelivered } from '../events/index.js';
import type { AgentMachineEvent, ModelTurn } from '../machines/agent-machine-types.js';
import { callVerdicts } from './call-permissions.js';
import { checkOutput } from './output-check.js';
import { policyContext } from './policy-context.js';
import { readModelStream } from './read-model-stream.js';
import { dropForeignReasoning } from './reasoning-filter.js';
import { refreshToolSources, ToolSourceFailure } from './refresh-tool-sources.js';
import { activeRun, depsOf, type MachineDeps, type RunHandle } from './run-handle.js';

function throwIfAborted(abort: LazyAbort): void {
  if (abort.aborted) throw new HarnessError('model_error', 'the model request was aborted');
}

/** Emits a delta of the streamed turn; the promise to wait for, or none once every subscriber has it. */
function emitDelta(run: RunHandle, abort: LazyAbort, event: AgentEvent): Promise<void> | undefined {
  throwIfAborted(abort);
  const emitted = run.emit(event);
  return isDelivered(emitted) ? undefined : emitted;
}

/** A request's options: its signal is made when the client reads it (a scripted client never does). */
export function requestOptions(
  abort: LazyAbort,
  output: ChatCompletionOptions['output'],
  sessionId?: string,
): ChatCompletionOptions {
  const options: { output?: ChatCompletionOptions['output']; sessionId?: string } = {};
  if (output !== undefined) options.output = output;
  if (sessionId !== undefined) options.sessionId = sessionId;
  return withLazySignal(options, abort);
}

/**
 * The context's size after a turn: the prompt tokens the provider reported for the request plus
 * the answer's, or, when it reported none, the estimate of both (`sentTokens`: the request's
 * messages and tools, estimated before it was sent); and the provider's tokens per
 * estimated token (1 without a report), to scale estimates of what joins the context next.
 * A reported ratio out of bounds ({@link boundTokenScale}) is replaced by the bound, the size
 * is the estimate scaled by it, and the ratio reported is kept (`reportedTokenScale`) to be noted.
 */
function measureContext(
  sentTokens: number,
  turn: Pick<ModelTurn, 'text' | 'toolCalls' | 'usage'>,
): { contextTokens: number; tokenScale: number; reportedTokenScale?: number } {
  const answer: Message =
    turn.toolCalls.length > 0
      ? { role: 'assistant', content: turn.text, toolCalls: turn.toolCalls }
      : { role: 'assistant', content: turn.text };
  const estimate = sentTokens + estimateMessageTokens(answer);
  if (turn.usage.promptTokens <= 0) return { contextTokens: estimate, tokenScale: 1 };
  const contextTokens = turn.usage.promptTokens + turn.usage.completionTokens;
  const reported = contextTokens / estimate;
  const tokenScale = boundTokenScale(reported);
  if (tokenScale === reported) return { contextTokens, tokenScale };
  return {
    contextTokens: Math.ceil(estimate * tokenScale),
    tokenScale,
    reportedTokenScale: Math.round(reported * 10_000) / 10_000,
  };
}

/**
 * Streams one model request and annotates the turn for the machine. `messages` is the request's
 * own copy of the context, its foreign reasoning already taken out.
 */
async function requestTurn(
  deps: MachineDeps,
  run: RunHandle,
  toolsWithheld: boolean,
  messages: Message[],
): Promise<ModelTurn> {
  const { session, bus } = deps;
  const abort = run.modelAbort;
  if (!bus.isIdle) await bus.idle(); // backpressure: subscribers catch up before the next request
  const durable = session.settled();
  if (durable !== undefined) await durable; // SPEC §8: a turn's entries are durable before the next request
  throwIfAborted(abort);
  const client = deps.client;
  if (client === undefined) throw new HarnessError('no_client', 'the agent has no model client');
  // Between turns, never within one: tool lists that changed (MCP listChanged) are applied now.
  // Checked here: an awaited call per turn would cost every agent without sources a promise.
  if (deps.toolSources.length > 0) await refreshToolSources(deps.toolSources, deps.tools);
  throwIfAborted(abort);
  // After a handoff, the agent handed to: its tools (its instructions are the system message).
  const registry = deps.activeTools();
  run.registry = registry;
  const tools = toolsWithheld ? undefined : registry.definitions();
  // An `async chatCompletion` returns a promise of the stream: await it, so that its rejection
  // is this request's failure (a model_error with its message), never an unhandled rejection.
  // The estimate of what is sent is taken before sending: a client may empty or change the copy.
  const sentTokens =
    session.config.context === undefined ? 0 : estimateContextTokens(messages) + estimateToolTokens(tools);
  const output = run.output;
  const requested = client.chatCompletion(messages, tools, run.requestOptions);
  const events = isPromiseLike(requested) ? await requested : requested;
  const streamed = await readModelStream(
    events,
    (delta) => emitDelta(run, abort, AgentEvent.textDelta(delta)),
    (delta) => emitDelta(run, abort, AgentEvent.toolCallDelta(delta)),
    (delta) => emitDelta(run, abort, AgentEvent.reasoningDelta(delta)),
    (modelSwitch) => session.recordModelSwitch(modelSwitch),
  );
  const { text, toolCalls, finishReason, reasoning, model } = streamed;
  // Usage a named model answered (a fallback chain) is priced at that model's rates.
  const usage = model === undefined ? streamed.usage : usageOfModel(streamed.usage, model);
  run.lastReasoning = reasoning;
  // The deltas were not held for the reader of run(): nothing after them (a tool's start, the
  // turn's end) goes on until it has them all and asks for the next, as when each was held.
  const caughtUp = run.readerCaughtUp();
  if (caughtUp !== undefined) await caughtUp;
  throwIfAborted(abort);
  if (text !== '') await run.emit(AgentEvent.textComplete(text));
  const concurrencySafe = toolCalls.map((call) => registry.isConcurrencySafe(call.name));
  const elapsedMs = deps.now() - run.startedAt;
  const judged = callVerdicts(session.config.permissions, registry, toolCalls, () => policyContext(session, abort), {
    topLevel: deps.depth === 0,
  });
  const verdicts = isPromiseLike(judged) ? await judged : judged;
  throwIfAborted(abort);
  const permissions = verdicts?.map((verdict) => verdict.permission);
  // A final answer of a run that asked for structured output: checked here, decided by the machine.
  const outputCheck = output !== undefined && toolCalls.length === 0 ? checkOutput(text, output.schema) : undefined;
  const context =
    session.config.context === undefined ? undefined : measureContext(sentTokens, { text, toolCalls, usage });
  if (
    permissions !== undefined ||
    outputCheck !== undefined ||
    context !== undefined ||
    reasoning !== undefined ||
    model !== undefined
  ) {
    return {
      text,
      toolCalls,
      usage,
      concurrencySafe,
      elapsedMs,
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(permissions !== undefined ? { permissions, verdicts } : {}),
      ...(outputCheck !== undefined ? { outputCheck } : {}),
      ...context,
      ...(finishReason ? { finishReason } : {}),
    };
  }
  // Built whole rather than spread (a spread that adds keys is slower: bench/cases/turn-cost.ts).
  return finishReason === undefined
    ? { text, toolCalls, usage, concurrencySafe, elapsedMs }
    : { text, toolCalls, usage, finishReason, concurrencySafe, elapsedMs };
}

/** Sends an effect's outcome to the machine, unless the run already ended (a late answer changes nothing). */
export function answer(self: AnyActorRef, event: AgentMachineEvent): void {
  if (self.getSnapshot().status === 'active') self.send(event);
}

/**
 * The `requestModel` effect: journal the turn's start and stream the request in the background;
 * answers `MODEL_TURN`, `MODEL_ERROR`, or `TOOL_SOURCE_ERROR` when a tool source failed to refresh.
 */
export function requestModel(self: AnyActorRef, system: object, toolsWithheld: boolean): void {
  const deps = depsOf(system);
  const run = activeRun(deps);
  // Only the turn's own calls are ever reported: a run of 1,000 turns need not keep 1,000 ids.
  run.announced.clear();
  const { session, client } = deps;
  // A copy of the frozen messages: a client may keep or change what it was sent. It costs one
  // pointer per message (cost per turn: bench/cases/turn-cost.ts). Taken with the turn's start,
  // which notes the reasoning parts the request leaves out (the context cannot change until
  // the request is answered).
  const messages = session.messagesForRequest();
  const dropped =
    session.hasReasoning && client !== undefined ? dropForeignReasoning(messages, client.provider) : undefined;
  session.startTurn(dropped);
  requestTurn(deps, run, toolsWithheld, messages).then(
    (turn) => answer(self, { type: 'MODEL_TURN', turn }),
    (error: unknown) =>
      answer(
        self,
        error instanceof ToolSourceFailure
          ? { type: 'TOOL_SOURCE_ERROR', message: error.message }
          : { type: 'MODEL_ERROR', message: errorMessage(error) },
      ),
  );
}
