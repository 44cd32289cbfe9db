import { handoffAgentOf } from '../../agent/handoffs.js';
import type { MessageContent } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { ToolCall } from '../../core/messages.js';
import { type RecordedVerdicts, withRecordedVerdicts } from '../../core/recorded-verdicts.js';
import { ToolResult } from '../../core/tool-result.js';
import { type TokenUsage, ZERO_USAGE } from '../../core/usage.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolRunContext } from '../../tools/tool-run-context.js';
import { CallKeys } from './call-keys.js';
import type { CassetteStep } from './divergence.js';
import type { JournalView } from './replay-client.js';
import { type StepMatcher, stepAt } from './step-matcher.js';

/** How long a call answered out of its recorded order waits for the calls recorded before it. */
const ORDER_WAIT_MS = 25;

interface RecordedCall {
  /** The verdicts its result's guardrails gave (none when it had none). */
  readonly verdicts: RecordedVerdicts | undefined;
  readonly call: ToolCall;
  /** Its result's content, when the recording has one. */
  readonly content: MessageContent | undefined;
  /** Where its result is among the recorded results (settle order). */
  readonly order: number;
  /** How many calls had started when its result was recorded (concurrent calls interleave). */
  readonly startsBefore: number;
  /** The usage its result carried (a sub-agent's), counted again into the new run. */
  readonly usage: TokenUsage | undefined;
}

function resultOf(content: MessageContent): ToolResult {
  if (typeof content !== 'string') return ToolResult.content(content);
  return content.startsWith('Error: ')
    ? ToolResult.error(content.slice('Error: '.length))
    : ToolResult.success(content);
}

/**
 * The `toolResult` verdicts of each recorded call (by {@link CallKeys} key), with the usage of
 * the guardrails' own requests (journaled just before them).
 */
function recordedVerdicts(journal: readonly JournalEntry[]): Map<string, RecordedVerdicts> {
  const found = new Map<string, RecordedVerdicts>();
  const keys = new CallKeys();
  journal.forEach((entry, index) => {
    if (entry.type !== 'guardrail' || entry.stage !== 'toolResult' || entry.callId === undefined) return;
    const key = keys.at(journal, index, entry.callId);
    const { type: _, ...verdict } = entry;
    const before = found.get(key);
    if (before !== undefined) {
      found.set(key, { ...before, verdicts: [...before.verdicts, verdict] });
      return;
    }
    const previous = journal[index - 1];
    found.set(key, { verdicts: [verdict], usage: previous?.type === 'usage' ? previous.usage : ZERO_USAGE });
  });
  return found;
}

/**
 * Answers tool calls from the recording (`tools: 'recorded'`): no tool runs. A call is matched
 * by its id against the recorded call (name and arguments); its recorded result settles in the
 * recorded order, so concurrent calls are journaled as they were. A call the recording does not
 * hold, or holds no result for, is a divergence answered with an error: a replay never waits.
 */
export class RecordedTools {
  /** The recorded calls by {@link CallKeys} key: an id the model reused is one call per turn. */
  private readonly calls = new Map<string, RecordedCall>();
  /** Keys of the new run's calls. */
  private readonly keys = new CallKeys();
  private next = 0;
  /** Calls invoked so far: each was journaled as started just before. */
  private started = 0;
  /** Calls answered ahead of their recorded turn, by recorded order: each settles when called. */
  private readonly waiting = new Map<number, { readonly startsBefore: number; readonly settle: () => void }>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    journal: readonly JournalEntry[],
    private readonly matcher: StepMatcher,
    private readonly view: JournalView,
  ) {
    const results = new Map<
      string,
      { content: MessageContent; order: number; startsBefore: number; usage: TokenUsage | undefined }
    >();
    let starts = 0;
    // An approver's edit is what the call ran with (the assistant message keeps the model's arguments).
    const edits = new Map<string, ToolCall['arguments']>();
    const verdicts = recordedVerdicts(journal);
    const named = new CallKeys();
    journal.forEach((entry, index) => {
      if (entry.type === 'tool_started') starts++;
      if (entry.type === 'approval_decision' && entry.arguments !== undefined)
        edits.set(named.at(journal, index, entry.callId), entry.arguments);
      if (entry.type === 'tool_result') {
        const key = named.at(journal, index, entry.callId);
        results.set(key, { content: entry.content, order: results.size, startsBefore: starts, usage: entry.usage });
      }
    });
    const asked = new CallKeys();
    journal.forEach((entry, index) => {
      if (entry.type !== 'assistant_message') return;
      for (const call of entry.toolCalls ?? []) {
        const key = asked.at(journal, index, call.callId);
        const result = results.get(key);
        const edit = edits.get(key);
        this.calls.set(key, {
          call: edit === undefined ? call : { ...call, arguments: edit },
          verdicts: verdicts.get(key),
          content: result?.content,
          order: result?.order ?? Number.POSITIVE_INFINITY,
          startsBefore: result?.startsBefore ?? 0,
          usage: result?.usage,
        });
      }
    });
  }

  /**
   * Makes `registry`, and the registries of the agents its handoff tools reach, answer from the
   * recording instead of running their tools. A handoff tool still runs (it only hands the
   * conversation over, which the new run must do again), and its call is answered as recorded.
   * Returns the function that puts every registry back as it was (a registry may be given to
   * the next replay, a live one).
   */
  install(registry: ToolRegistry): () => void {
    const seen = new Set<ToolRegistry>();
    const restores: (() => void)[] = [];
    const queue = [registry];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (seen.has(next)) continue;
      seen.add(next);
      const own = next;
      const before = Object.getOwnPropertyDescriptor(own, 'invokeEager');
      restores.push(() => {
        if (before === undefined) delete (own as { invokeEager?: unknown }).invokeEager;
        else Object.defineProperty(own, 'invokeEager', before);
      });
      const run = own.invokeEager.bind(own);
      own.invokeEager = (name, params, options = {}) => {
        if (handoffAgentOf(own.get(name)) !== undefined) run(name, params, options);
        return this.answer(name, params, options.callId ?? '', options.run);
      };
      for (const name of own.names()) {
        const agent = handoffAgentOf(own.get(name));
        if (agent !== undefined) queue.push(agent.registry);
      }
    }
    return () => {
      for (const restore of restores.reverse()) restore();
    };
  }

  private answer(
    name: string,
    params: unknown,
    callId: string,
    run: ToolRunContext | undefined,
  ): ToolResult | Promise<ToolResult> {
    this.started++;
    const journal = this.view.journal;
    const step = (): CassetteStep => stepAt(journal, journal.length - 1);
    const actual = { call: { callId, name, arguments: params } };
    const recorded = this.calls.get(this.keys.of(journal, callId));
    if (recorded === undefined) {
      this.matcher.add(step(), 'tool call', undefined, actual, `call ${callId} (${name}) is not in the recording`);
      return ToolResult.error(`cassette: call ${callId} is not in the recording`);
    }
    const expected = { call: recorded.call };
    if (!this.matcher.same('tool call', expected, actual, step)) {
      this.matcher.add(step(), 'tool call', expected, actual, `call ${callId} differs from the recorded call`);
    }
    if (recorded.content === undefined) {
      this.matcher.add(
        step(),
        'recording ended',
        undefined,
        actual,
        `recording ended at step ${journal.length - 1}: it holds no result for call ${callId}`,
      );
      return ToolResult.error(`cassette: the recording holds no result for call ${callId}`);
    }
    // A sub-agent's usage came with its result: the new run counts it as the recorded one did.
    if (recorded.usage !== undefined) run?.addUsage(recorded.usage);
    const plain = resultOf(recorded.content);
    const result = recorded.verdicts === undefined ? plain : withRecordedVerdicts(plain, recorded.verdicts);
    // Results recorded before this one settle first: this call's start may be what they waited for.
    const released = this.release();
    if (recorded.order !== this.next || recorded.startsBefore > this.started) {
      return this.later(recorded.order, recorded.startsBefore, result);
    }
    this.next++;
    this.release();
    // After a release, settle behind the calls released (their reports are queued first).
    return released ? Promise.resolve(result) : result;
  }

  /** A result recorded after others not yet asked for: it waits for them (briefly). */
  private later(order: number, startsBefore: number, result: ToolResult): Promise<ToolResult> {
    this.timer ??= setTimeout(() => this.giveUpOrder(), ORDER_WAIT_MS);
    return new Promise((resolve) => this.waiting.set(order, { startsBefore, settle: () => resolve(result) }));
  }

  /** Settles the waiting calls now due, in recorded order; whether any was. */
  private release(): boolean {
    let released = false;
    for (
      let waiter = this.waiting.get(this.next);
      waiter !== undefined && waiter.startsBefore <= this.started;
      waiter = this.waiting.get(this.next)
    ) {
      this.waiting.delete(this.next);
      this.next++;
      waiter.settle();
      released = true;
    }
    if (this.waiting.size === 0 && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    return released;
  }

  /**
   * The calls recorded before the waiting ones never came (the run diverged): release the
   * waiting ones in recorded order; the journal comparison reports the difference.
   */
  private giveUpOrder(): void {
    this.timer = undefined;
    const orders = [...this.waiting.keys()].sort((a, b) => a - b);
    for (const order of orders) {
      const waiter = this.waiting.get(order);
      this.waiting.delete(order);
      this.next = Math.max(this.next, order + 1);
      waiter?.settle();
    }
  }
}
