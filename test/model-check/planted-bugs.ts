import { assign } from 'xstate';
import { agentMachine, Budget, type BudgetOptions, type TokenUsage } from '../../src/index.js';
import type { AgentContext, AgentMachineEvent } from '../../src/machine.js';
import type { BudgetStopReason, SoftLimitHit } from '../../src/prices.js';
import type { MachineRule, ModelCheckOptions } from '../../src/testing/index.js';
import { listOf, on, type StateConfig, variant, withOn, without, withoutEffect } from './machine-variants.js';

/** A bug planted in the machine, and what the model checker must say about it. */
export interface PlantedBug {
  /** What is wrong, as a reviewer would put it. */
  readonly bug: string;
  /** The exploration that must find it. */
  readonly check: ModelCheckOptions;
  /** Each rule that must report it, with the problem it must report. */
  readonly reported: readonly (readonly [MachineRule, RegExp])[];
}

type StopRule = (budget: Budget, turns: number, usage: TokenUsage, elapsedMs: number) => BudgetStopReason | null;
type SoftRule = (budget: Budget, turns: number, usage: TokenUsage, elapsedMs: number) => SoftLimitHit | null;

/** A budget whose checks are replaced: how a test plants a bug of `config/budget.ts`. */
class PlantedBudget extends Budget {
  constructor(
    options: BudgetOptions,
    private readonly stop?: StopRule,
    private readonly soft?: SoftRule,
  ) {
    super(options);
  }

  override stopReason(turns: number, usage: TokenUsage, elapsedMs = 0): BudgetStopReason | null {
    return this.stop === undefined
      ? super.stopReason(turns, usage, elapsedMs)
      : this.stop(this, turns, usage, elapsedMs);
  }

  override softLimit(turns: number, usage: TokenUsage, elapsedMs = 0): SoftLimitHit | null {
    return this.soft === undefined
      ? super.softLimit(turns, usage, elapsedMs)
      : this.soft(this, turns, usage, elapsedMs);
  }
}

/** `Budget.stopReason` with each comparison spelled out, so one of them can be changed. */
function stopReasonWith(compare: {
  turns?: (turns: number, max: number) => boolean;
  cost?: (cost: number, max: number) => boolean;
  tokens?: (tokens: number, max: number) => boolean;
  time?: (ms: number, max: number) => boolean;
  order?: readonly BudgetStopReason[];
}): StopRule {
  return (budget, turns, usage, elapsedMs) => {
    const reached: Record<BudgetStopReason, boolean> = {
      turn_budget: budget.maxTurns !== undefined && (compare.turns ?? ((n, max) => n >= max))(turns, budget.maxTurns),
      cost_budget:
        budget.maxCost !== undefined &&
        (compare.cost ?? ((c, max) => c > max * (1 + 1e-9)))(budget.usageCost(usage), budget.maxCost),
      token_budget:
        budget.maxTotalTokens !== undefined &&
        (compare.tokens ?? ((n, max) => n > max))(usage.totalTokens, budget.maxTotalTokens),
      time_budget:
        budget.maxWallClockMs !== undefined &&
        (compare.time ?? ((ms, max) => ms >= max))(elapsedMs, budget.maxWallClockMs),
    };
    const order = compare.order ?? ['turn_budget', 'cost_budget', 'token_budget', 'time_budget'];
    return order.find((reason) => reached[reason]) ?? null;
  };
}

const never = () => false;

type Guarded = { context: AgentContext; event: AgentMachineEvent };

const small = { maxTurns: 2, softLimitRatio: 0.5 };
const k2 = { maxToolCalls: 2 };
const oneCall = { maxToolCalls: 1 };

/** Bugs planted through `agentMachine.provide({ guards })`: guards off by one, or constant. */
export const GUARD_BUGS: readonly PlantedBug[] = [
  {
    bug: 'allSettled is always true: executingTools is left before every result is in',
    check: { budget: small, ...k2, machine: agentMachine.provide({ guards: { allSettled: () => true } }) },
    reported: [['complete_observations', /observations appended with 1 result\(s\) missing/]],
  },
  {
    bug: 'allSettled off by one, early (settled + 1 >= calls)',
    check: {
      budget: small,
      ...k2,
      machine: agentMachine.provide({
        guards: { allSettled: ({ context }) => context.tools.settled + 1 >= context.tools.calls.length },
      }),
    },
    reported: [['complete_observations', /result\(s\) missing/]],
  },
  {
    bug: 'allSettled off by one, late (settled > calls): the last result never ends the batch',
    check: {
      budget: small,
      ...k2,
      machine: agentMachine.provide({
        guards: { allSettled: ({ context }) => context.tools.settled > context.tools.calls.length },
      }),
    },
    reported: [
      ['end_reachable', /neither done nor error is reachable from 'executingTools'/],
      ['way_out', /'executingTools' has no way out/],
    ],
  },
  {
    bug: 'turnAskedForTools is always false: a tool turn is taken as the answer',
    check: { budget: small, ...k2, machine: agentMachine.provide({ guards: { turnAskedForTools: never } }) },
    reported: [['done_after_text_turn', /done followed a turn that asked for tools/]],
  },
  {
    bug: 'turnAskedForTools off by one (more than one call)',
    check: {
      budget: small,
      ...k2,
      machine: agentMachine.provide({
        guards: {
          turnAskedForTools: ({ event }) => event.type === 'MODEL_TURN' && event.turn.toolCalls.length > 1,
        },
      }),
    },
    reported: [['done_after_text_turn', /done followed a turn that asked for tools/]],
  },
  {
    bug: 'turnAskedForGatedTools is always false: a tool turn after the soft limit withheld tools is taken as the answer',
    check: {
      budget: { maxTurns: 4, softLimitRatio: 0.5 },
      ...oneCall,
      machine: agentMachine.provide({ guards: { turnAskedForGatedTools: never } }),
    },
    reported: [['done_after_text_turn', /done followed a turn that asked for tools/]],
  },
  {
    bug: 'turnAskedForTools is always true: a text answer waits for tools forever',
    check: { budget: small, ...k2, machine: agentMachine.provide({ guards: { turnAskedForTools: () => true } }) },
    reported: [['unreachable_state', /state 'done' is unreachable/]],
  },
  {
    bug: 'isAborting is always false: an abort during tools is forgotten at budgetCheck',
    check: { budget: small, ...k2, machine: agentMachine.provide({ guards: { isAborting: never } }) },
    reported: [['no_request_after_abort', /a model request was made after an abort/]],
  },
  {
    bug: 'softLimitReached is always true: it warns early, and again',
    check: {
      budget: { maxTurns: 4, softLimitRatio: 0.5 },
      ...oneCall,
      machine: agentMachine.provide({ guards: { softLimitReached: () => true } }),
    },
    reported: [
      ['soft_limit', /a soft-limit warning although no soft limit was reached/],
      ['soft_limit', /a second soft-limit warning on one path/],
    ],
  },
  {
    bug: 'softLimitReached is always false: no warning',
    check: { budget: small, ...k2, machine: agentMachine.provide({ guards: { softLimitReached: never } }) },
    reported: [['soft_limit', /without a warning although the turns soft limit was reached/]],
  },
  {
    bug: 'hardLimitReached is always false: the run never stops for its budget',
    check: { budget: { maxTurns: 3 }, ...k2, machine: agentMachine.provide({ guards: { hardLimitReached: never } }) },
    reported: [
      ['hard_limit', /model request 4 was made although turn_budget was reached \(turns 3 of 3\)/],
      ['step_bound', /no final state within 10 steps/],
    ],
  },
  {
    bug: 'hardLimitReached off by one, late (turns > maxTurns)',
    check: {
      budget: { maxTurns: 2 },
      ...k2,
      machine: agentMachine.provide({
        guards: { hardLimitReached: ({ context }) => context.turns > (context.limits.budget.maxTurns ?? 0) },
      }),
    },
    reported: [['hard_limit', /model request 3 was made although turn_budget was reached/]],
  },
  {
    bug: 'hardLimitReached off by one, early (turns + 1 >= maxTurns)',
    check: {
      budget: { maxTurns: 3 },
      ...k2,
      machine: agentMachine.provide({
        guards: { hardLimitReached: ({ context }) => context.turns + 1 >= (context.limits.budget.maxTurns ?? 0) },
      }),
    },
    reported: [['hard_limit', /budgetCheck stopped the run with 'turn_budget' although no hard limit was reached/]],
  },
];

/** Bugs planted in the budget rules (a `Budget` whose checks compare wrongly). */
export const BUDGET_BUGS: readonly PlantedBug[] = [
  {
    bug: 'cost compared with >=: a cost equal to maxCost stops the run',
    check: {
      ...oneCall,
      budget: new PlantedBudget({ maxTurns: 2, maxCost: 0.0015 }, stopReasonWith({ cost: (c, max) => c >= max })),
    },
    reported: [['hard_limit', /stopped the run with 'cost_budget' although no hard limit was reached/]],
  },
  {
    bug: 'tokens compared with >=: exactly maxTotalTokens stops the run',
    check: {
      ...oneCall,
      budget: new PlantedBudget(
        { maxTurns: 2, maxTotalTokens: 1000 },
        stopReasonWith({ tokens: (n, max) => n >= max }),
      ),
    },
    reported: [['hard_limit', /stopped the run with 'token_budget' although no hard limit was reached/]],
  },
  {
    bug: 'turns compared with >: one request past maxTurns',
    check: { ...oneCall, budget: new PlantedBudget({ maxTurns: 2 }, stopReasonWith({ turns: (n, max) => n > max })) },
    reported: [['hard_limit', /model request 3 was made although turn_budget was reached \(turns 2 of 2\)/]],
  },
  {
    bug: 'the cost limit is never checked',
    check: { ...oneCall, budget: new PlantedBudget({ maxTurns: 2, maxCost: 0.0015 }, stopReasonWith({ cost: never })) },
    reported: [['hard_limit', /although cost_budget was reached \(cost 0\.001501 of 0\.0015\)/]],
  },
  {
    bug: 'the token limit is never checked',
    check: {
      ...oneCall,
      budget: new PlantedBudget({ maxTurns: 2, maxTotalTokens: 1000 }, stopReasonWith({ tokens: never })),
    },
    reported: [['hard_limit', /although token_budget was reached \(tokens 1001 of 1000\)/]],
  },
  {
    bug: 'time compared with >: a run whose time is used up goes on',
    check: {
      ...oneCall,
      elapsedSteps: [0, 100],
      budget: new PlantedBudget({ maxTurns: 2, maxWallClockMs: 100 }, stopReasonWith({ time: (ms, max) => ms > max })),
    },
    reported: [['hard_limit', /although time_budget was reached \(time 100 ms of 100 ms\)/]],
  },
  {
    bug: 'hard-limit precedence swapped: tokens before cost',
    check: {
      ...oneCall,
      elapsedSteps: [0, 100],
      budget: new PlantedBudget(
        { maxTurns: 2, maxCost: 0.001, maxTotalTokens: 1000, maxWallClockMs: 100 },
        stopReasonWith({ order: ['turn_budget', 'token_budget', 'cost_budget', 'time_budget'] }),
      ),
    },
    reported: [['stop_precedence', /stopped with 'token_budget' but 'cost_budget' must win/]],
  },
  {
    bug: 'soft limit compared with >: a turn count at exactly the ratio does not warn',
    check: {
      ...oneCall,
      budget: new PlantedBudget({ maxTurns: 4, softLimitRatio: 0.5 }, undefined, (budget, turns) => {
        const max = budget.maxTurns ?? 1;
        return turns / max > (budget.softLimitRatio ?? 1) ? { budget: 'turns', used: turns / max } : null;
      }),
    },
    reported: [['soft_limit', /model request 3 was made without a warning although the turns soft limit was reached/]],
  },
];

const appendTo = (transitions: unknown[], action: unknown) =>
  transitions.map((t) => ({ ...(t as object), actions: [...listOf(t as Record<string, unknown>, 'actions'), action] }));

/** Results kept in the order calls settle, not the order the model asked for them. */
const arrivalOrder = assign(({ context, event }: Guarded) => {
  if (event.type !== 'TOOL_SETTLED') return {};
  const slot = context.tools.settled - 1;
  if (slot === event.index || slot < 0) return {};
  const results = context.tools.results.slice();
  [results[slot], results[event.index]] = [results[event.index], results[slot]];
  return { tools: { ...context.tools, results } };
});

const uncountTurn = assign(({ context }: Guarded) => ({ turns: context.turns - 1 }));

const keepAborting = assign(({ context, event }: Guarded) => ({
  aborting: context.aborting ?? (event.type === 'ABORT' ? { reason: event.reason, message: event.message } : undefined),
}));

const modelErrorStop = (reason: string, message: string) =>
  assign(() => ({ stop: { reason, message } }) as Partial<AgentContext>);

/** A machine whose handling of a settled call no longer enqueues `effect`. */
function dropOnSettle(effect: string) {
  return variant(({ executingTools }) => {
    const handlers = on(executingTools, 'TOOL_SETTLED').map((t) => ({
      ...t,
      actions: withoutEffect(listOf(t, 'actions'), effect),
    }));
    return { executingTools: withOn(executingTools, 'TOOL_SETTLED', handlers) };
  });
}

/** A machine that forgets to count a turn that asked for tools. */
export const turnNotCounted = variant(({ awaitingModel }) => {
  const [tools, answer] = on(awaitingModel, 'MODEL_TURN').filter((t) => t.guard !== 'inputUnchecked');
  const handler = [...appendTo([tools], uncountTurn), answer];
  return { awaitingModel: { ...awaitingModel, on: { ...(awaitingModel?.on as object), MODEL_TURN: handler } } };
});

/** Bugs planted in the machine's definition: dropped effects, transitions in another order, extra actions. */
export const VARIANT_BUGS: readonly PlantedBug[] = [
  {
    bug: 'awaitingModel requests the model without checking the context limit (compaction never runs)',
    check: {
      budget: { maxTurns: 2 },
      ...oneCall,
      context: true,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: {
          ...awaitingModel,
          entry: [listOf(awaitingModel, 'entry')[0], { type: 'requestModel', params: { toolsWithheld: false } }],
          always: listOf(awaitingModel, 'always').filter((t) => (t as StateConfig).guard !== 'contextOverLimit'),
        },
      })),
    },
    reported: [['context_limit', /a model request was made with the context at 1\d\d tokens, over its limit of 100/]],
  },
  {
    bug: 'compacting goes straight back to awaitingModel (a summary that crossed a budget is not checked)',
    check: {
      budget: { maxTurns: 3, maxTotalTokens: 100 },
      ...oneCall,
      context: true,
      machine: variant(({ compacting }) => ({
        compacting: withOn(
          compacting,
          'COMPACTED',
          on(compacting, 'COMPACTED').map((t) => (t.target === 'budgetCheck' ? { ...t, target: 'awaitingModel' } : t)),
        ),
      })),
    },
    reported: [['hard_limit', /token/]],
  },
  {
    bug: 'awaitingModel takes a structured answer that fails its schema as the final answer',
    check: {
      budget: { maxTurns: 2 },
      maxToolCalls: 1,
      structuredOutput: true,
      outputRetries: 1,
      machine: variant(({ awaitingModel }) => {
        const kept = on(awaitingModel, 'MODEL_TURN').filter(
          (t) => t.guard !== 'outputRejectedWithRetry' && t.guard !== 'outputRejected',
        );
        return { awaitingModel: withOn(awaitingModel, 'MODEL_TURN', kept) };
      }),
    },
    reported: [['output_retries', /done followed an answer that failed the output schema/]],
  },
  {
    bug: 'budgetCheck never asks about invalid calls (the maxInvalidToolCalls bound is not kept)',
    check: {
      budget: { maxTurns: 3 },
      maxToolCalls: 1,
      invalidCalls: true,
      maxInvalidToolCalls: 2,
      machine: variant(({ budgetCheck }) => {
        const always = listOf(budgetCheck, 'always') as Record<string, unknown>[];
        return { budgetCheck: { ...budgetCheck, always: always.filter((t) => t.guard !== 'invalidCallsExceeded') } };
      }),
    },
    reported: [['invalid_calls', /model request \d was made although '(look|change)' had 2 invalid calls in a row/]],
  },
  {
    bug: 'budgetCheck asks about the soft limit before the hard one',
    check: {
      budget: { maxTurns: 2, softLimitRatio: 1 },
      ...oneCall,
      machine: variant(({ budgetCheck }) => {
        const [abort, invalid, hard, soft, go] = listOf(budgetCheck, 'always');
        return { budgetCheck: { ...budgetCheck, always: [abort, invalid, soft, hard, go] } };
      }),
    },
    reported: [
      ['stop_precedence', /a soft-limit warning where turn_budget was reached .*: a hard limit stops the run/],
    ],
  },
  {
    bug: 'budgetCheck asks about hard limits before an accepted abort',
    check: {
      budget: { maxTurns: 2 },
      ...oneCall,
      machine: variant(({ budgetCheck }) => {
        const [abort, invalid, hard, ...rest] = listOf(budgetCheck, 'always');
        return { budgetCheck: { ...budgetCheck, always: [hard, abort, invalid, ...rest] } };
      }),
    },
    reported: [
      ['stop_precedence', /stopped with 'turn_budget' but 'aborted' must win/],
      ['stop_precedence', /stopped with 'turn_budget' but 'time_budget' must win/],
    ],
  },
  {
    bug: 'an abort during tools does not cancel the calls that run (it only marks the run as aborting)',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ executingTools }) => ({
        executingTools: withOn(executingTools, 'ABORT', { actions: keepAborting }),
      })),
    },
    reported: [['cancel_on_abort', /an abort \(aborted\) was accepted while 1 call\(s\) ran, and 0 was cancelled/]],
  },
  {
    bug: 'a settled result is never journaled (recordResult dropped)',
    check: { budget: small, ...oneCall, machine: dropOnSettle('recordResult') },
    reported: [
      ['complete_observations', /1 result\(s\) in context but never journaled/],
      ['results_before_request', /a model request was made before every tool call had a result/],
    ],
  },
  {
    bug: 'settled results are never reported (reportResults dropped)',
    check: { budget: small, ...oneCall, machine: dropOnSettle('reportResults') },
    reported: [['report_order', /observing entered with call 0 of 1 not reported/]],
  },
  {
    bug: 'executingTools takes a model turn as awaitingModel does, so a late one ends the run',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel, executingTools }) => ({
        executingTools: withOn(executingTools, 'MODEL_TURN', on(awaitingModel, 'MODEL_TURN')),
      })),
    },
    reported: [['stale_event', /stale 'stale model\(text\)' changes 'executingTools'/]],
  },
  {
    bug: 'the soft limit withholds tools without a warning (warnBudget missing)',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ budgetCheck }) => {
        const always = listOf(budgetCheck, 'always') as Record<string, unknown>[];
        const silent = always.map((t) =>
          t.guard === 'softLimitReached' ? { ...t, actions: without(listOf(t, 'actions'), 'warnBudget') } : t,
        );
        return { budgetCheck: { ...budgetCheck, always: silent } };
      }),
    },
    reported: [['soft_limit', /tools were withheld from the model without a soft-limit warning/]],
  },
  {
    bug: 'entering awaitingModel makes no model request',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: { ...awaitingModel, entry: listOf(awaitingModel, 'entry').slice(0, 1) },
      })),
    },
    reported: [['request_answered', /a model turn was accepted while no model request was in flight/]],
  },
  {
    bug: 'results are stored in the order calls settle, not the order asked',
    check: {
      budget: small,
      ...k2,
      machine: variant(({ executingTools }) => ({
        executingTools: {
          ...executingTools,
          on: {
            ...(executingTools?.on as object),
            TOOL_SETTLED: appendTo(on(executingTools, 'TOOL_SETTLED'), arrivalOrder),
          },
        },
      })),
    },
    reported: [
      ['result_index', /the result of call 1 was stored at index 0, not at index 1/],
      // Cancelling the calls of the wrong index sends to an actor that is gone.
      ['transition_throws', /'ABORT\(aborted\)' throws in 'executingTools': Unable to send event to actor 'tool-1'/],
    ],
  },
  {
    bug: 'a turn that asked for tools is not counted',
    check: {
      budget: { maxTurns: 2 },
      ...oneCall,
      machine: turnNotCounted,
    },
    reported: [['turn_count', /request 2 but the context counts 0 completed turns/]],
  },
  {
    bug: 'a model turn that asked for tools is not recorded (recordModelTurn missing)',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => {
        // Every transition to executingTools (tools the gate lets through, and gated ones).
        const handlers = on(awaitingModel, 'MODEL_TURN').map((t) =>
          t.target === 'executingTools' ? { ...t, actions: withoutEffect(listOf(t, 'actions'), 'recordModelTurn') } : t,
        );
        return { awaitingModel: withOn(awaitingModel, 'MODEL_TURN', handlers) };
      }),
    },
    reported: [['complete_observations', /a tool result was journaled with no call awaiting one/]],
  },
  {
    bug: 'observing goes straight back to the model, skipping budgetCheck',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ observing }) => ({ observing: { ...observing, always: 'awaitingModel' } })),
    },
    reported: [['budget_check_before_request', /a model request followed an observation without budgetCheck/]],
  },
  {
    bug: 'done does not record the end (finish missing)',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ done }) => ({ done: { ...done, entry: without(listOf(done, 'entry'), 'finish') } })),
    },
    reported: [['run_ends', /the run ended without finish or fail/]],
  },
  {
    bug: 'error records the end before it cancels the work in flight',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ error }) => {
        const [enter] = listOf(error, 'entry');
        return { error: { ...error, entry: [enter, 'fail', 'cancelInFlight'] } };
      }),
    },
    reported: [['nothing_after_end', /'cancelInFlight' after the run ended/]],
  },
  {
    bug: 'an abort while the model streams waits for its answer',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: { ...awaitingModel, on: { ...(awaitingModel?.on as object), ABORT: { actions: keepAborting } } },
      })),
    },
    reported: [['no_answer_after_abort', /the run finished with an answer after an abort/]],
  },
  {
    bug: 'a model failure is ignored',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: { ...awaitingModel, on: { ...(awaitingModel?.on as object), MODEL_ERROR: undefined } },
      })),
    },
    reported: [['dropped_event', /'model\(error\)' is dropped in 'awaitingModel'/]],
  },
  {
    bug: 'a model failure stops the run without a message',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: {
          ...awaitingModel,
          on: {
            ...(awaitingModel?.on as object),
            MODEL_ERROR: { target: 'error', actions: modelErrorStop('model_error', '') },
          },
        },
      })),
    },
    reported: [['stop_reason', /error 'model_error' without a message/]],
  },
  {
    bug: 'a model failure stops the run as aborted',
    check: {
      budget: small,
      ...oneCall,
      machine: variant(({ awaitingModel }) => ({
        awaitingModel: {
          ...awaitingModel,
          on: {
            ...(awaitingModel?.on as object),
            MODEL_ERROR: { target: 'error', actions: modelErrorStop('aborted', 'model failed') },
          },
        },
      })),
    },
    reported: [['stop_precedence', /stopped with 'aborted' but 'model_error' must win/]],
  },
];

/** A replacement for `readyRange` (machines/tool-schedule.ts) with a bug in it. */
export type ReadyRange = (
  concurrencySafe: readonly boolean[],
  nextToStart: number,
  running: number,
) => { from: number; to: number };

/** A bug planted in the tool schedule, and what the checker must say. */
export interface ScheduleBug {
  readonly bug: string;
  readonly readyRange: ReadyRange;
  readonly reported: readonly (readonly [MachineRule, RegExp])[];
}

function maximalRun(concurrencySafe: readonly boolean[], from: number): number {
  let to = from + 1;
  if (concurrencySafe[from]) while (to < concurrencySafe.length && concurrencySafe[to]) to++;
  return to;
}

/**
 * Schedule bugs. They show only with three calls in a turn: a batch of two safe calls whose
 * first finishes while the second still runs, then an unsafe call.
 */
export const SCHEDULE_BUGS: readonly ScheduleBug[] = [
  {
    bug: 'running > 0 dropped: the next call starts while its batch still runs',
    readyRange: (safe, next) =>
      next >= safe.length ? { from: next, to: next } : { from: next, to: maximalRun(safe, next) },
    reported: [['tool_schedule', /unsafe call 2 started while call 1 of an earlier batch was still running/]],
  },
  {
    bug: 'safe calls start one at a time instead of as one batch',
    readyRange: (safe, next, running) =>
      running > 0 || next >= safe.length ? { from: next, to: next } : { from: next, to: next + 1 },
    reported: [['tool_schedule', /safe call 1 did not start with calls 0: safe neighbours start together/]],
  },
  {
    bug: 'a batch of safe calls runs on over the unsafe call after it',
    readyRange: (safe, next, running) => {
      if (running > 0 || next >= safe.length) return { from: next, to: next };
      const to = maximalRun(safe, next);
      return { from: next, to: safe[next] && to < safe.length ? to + 1 : to };
    },
    reported: [['tool_schedule', /call 1 started together with call 0, one of them unsafe/]],
  },
];

const guarded = { budget: { maxTurns: 2 }, maxToolCalls: 2, guardrails: true } as const;

/** Bugs of the guardrail steps: a result passed on before its check, a tripwire read as a pass. */
export const GUARDRAIL_BUGS: readonly PlantedBug[] = [
  {
    bug: 'a settled result is journaled without waiting for its toolResult guardrails',
    check: { ...guarded, machine: agentMachine.provide({ guards: { resultNeedsGuardrails: () => false } }) },
    reported: [['guarded_results', /result of call 0 was journaled .* before its guardrails' verdict/]],
  },
  {
    bug: 'a tripwire is ignored: the verdict is read as a pass',
    check: { ...guarded, machine: agentMachine.provide({ guards: { guardrailTripped: () => false } }) },
    reported: [['tripwire_ends_run', /'(finish|requestModel|spawned)' after a guardrail stopped the run/]],
  },
];
