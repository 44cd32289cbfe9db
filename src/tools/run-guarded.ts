import { debugLog } from '../core/debug-log.js';
import { errorMessage } from '../core/errors.js';
import { LazyAbort, withLazySignal } from '../core/lazy-abort.js';
import { isPromiseLike } from '../core/promise-like.js';
import { thrownResult } from '../core/tool-exception.js';
import { abortedBeforeStart, ToolResult } from '../core/tool-result.js';
import { watchAbort } from './abort-watchers.js';
import type { AnyTool } from './registry.js';
import { eagerExecuteOf } from './tool.js';
import { resultOfAnswer } from './tool-answer.js';
import type { ToolRunContext } from './tool-run-context.js';

/** What {@link runGuarded} needs for one call. */
export interface GuardedCall {
  readonly params: unknown;
  readonly callId: string;
  readonly cwd: string;
  /** The call's abort: a signal, or a {@link LazyAbort} whose signal is made only if the tool reads it. */
  readonly signal: AbortSignal | LazyAbort | undefined;
  readonly timeoutMs: number | undefined;
  /** The agent run making the call, if any. */
  readonly run?: ToolRunContext | undefined;
}

/** The signal of a call that nothing can abort. */
const NEVER_ABORTED = new AbortController().signal;

function reasonText(signal: { readonly reason: unknown }): string {
  const reason: unknown = signal.reason;
  if (reason === undefined) return 'aborted';
  return typeof reason === 'string' ? reason : errorMessage(reason);
}

/**
 * The result of a tool that threw (or whose promise rejected): `Internal error: …` for the model,
 * the thrown error for its developer (`result.exception`, and the `agent-harness:tools` debug log).
 */
export function crashedResult(name: string, callId: string, thrown: unknown): ToolResult {
  const result = thrownResult(thrown);
  const why = result.exception?.stack ?? `${result.exception?.name}: ${result.exception?.message}`;
  debugLog('agent-harness:tools', `tool '${name}'${callId === '' ? '' : ` (call ${callId})`} threw: ${why}`);
  return result;
}

/**
 * Runs a tool so that the call always settles with a result: a throw becomes
 * `Internal error: …` carrying what was thrown ({@link crashedResult}), what it returns is read
 * by {@link resultOfAnswer}, the time limit and an abort end the wait at once (and abort the tool's
 * own signal), even if the tool ignores its signal. A tool that answers synchronously is
 * answered synchronously (no timer, no abort listener, no promise).
 */
export function runGuarded(tool: AnyTool, call: GuardedCall): ToolResult | Promise<ToolResult> {
  const outer = call.signal;
  if (outer?.aborted) {
    return ToolResult.error(abortedBeforeStart(tool.name, reasonText(outer)));
  }
  // An own controller only when a time limit must abort the tool; otherwise the caller's signal
  // reaches the tool as it is (one AbortController less per call on the hot path).
  const controller = call.timeoutMs === undefined ? undefined : new AbortController();
  const invocation =
    controller === undefined && outer instanceof LazyAbort
      ? lazyInvocation(call, outer)
      : {
          params: call.params as never,
          callId: call.callId,
          cwd: call.cwd,
          signal: controller?.signal ?? signalOf(outer) ?? NEVER_ABORTED,
          run: call.run,
        };
  let value: unknown;
  let pending: boolean;
  try {
    const eager = eagerExecuteOf(tool);
    value = eager === undefined ? tool.execute(invocation) : eager(invocation);
    pending = isPromiseLike(value); // may read a throwing `then`
  } catch (error) {
    return crashedResult(tool.name, call.callId, error);
  }
  return pending
    ? guard(tool.name, call.callId, value as PromiseLike<unknown>, outer, controller, call.timeoutMs)
    : resultOfAnswer(tool.name, value);
}

function signalOf(abort: AbortSignal | LazyAbort | undefined): AbortSignal | undefined {
  return abort instanceof LazyAbort ? abort.signal : abort;
}

/** The invocation of a call whose signal is made only if the tool reads it. */
function lazyInvocation(call: GuardedCall, abort: LazyAbort) {
  // `run` after `signal`: the keys in the order of an invocation with a signal of its own.
  const invocation: { params: never; callId: string; cwd: string; readonly signal: AbortSignal; run?: ToolRunContext } =
    withLazySignal({ params: call.params as never, callId: call.callId, cwd: call.cwd }, abort);
  invocation.run = call.run;
  return invocation;
}

/** Waits for a tool's promise, unless its time limit or an abort ends the wait first. */
function guard(
  name: string,
  callId: string,
  pending: PromiseLike<unknown>,
  outer: AbortSignal | LazyAbort | undefined,
  controller: AbortController | undefined,
  timeoutMs: number | undefined,
): Promise<ToolResult> {
  return new Promise<ToolResult>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: ToolResult, abortReason?: string): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      unwatch?.();
      if (abortReason !== undefined) controller?.abort(abortReason);
      resolve(result);
    };
    const onAbort = (): void => {
      const why = reasonText(outer as AbortSignal | LazyAbort);
      finish(ToolResult.error(`Tool '${name}' was aborted: ${why}`), why);
    };
    // A call's own lazy abort is watched directly: its signal is made only if the tool reads it.
    const unwatch =
      outer === undefined ? undefined : outer instanceof LazyAbort ? outer.watch(onAbort) : watchAbort(outer, onAbort);
    if (timeoutMs !== undefined) {
      timer = setTimeout(
        () => finish(ToolResult.error(`Tool '${name}' timed out after ${timeoutMs} ms`), 'timeout'),
        timeoutMs,
      );
    }
    // Aborted while the tool's own `execute` ran: no abort is coming to wait for. (After the
    // timer is set, so that finishing clears it.)
    if (outer?.aborted) onAbort();
    // Promise.resolve: a foreign thenable whose `then` throws becomes a rejection here.
    Promise.resolve(pending).then(
      (value) => finish(resultOfAnswer(name, value)),
      (error: unknown) => finish(crashedResult(name, callId, error)),
    );
  });
}
