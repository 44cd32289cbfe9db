// Bugs the chart checker cannot see, each planted in a copy of the one module that holds the rule
// (loaded with `vi.doMock`, never a switch in production code), with the scenario that reaches it
// and what the runtime walk must report: the rule's name, the problem, and a line of its path.
import type { vi } from 'vitest';

type Mock = typeof vi.doMock;

/** One planted bug. */
export interface RuntimeBug {
  /** What the bug does. */
  readonly bug: string;
  /** The module it is planted in, relative to this directory. */
  readonly module: string;
  /** The mocked module: the original with one function replaced. */
  readonly plant: (original: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The scenario (by name, among the default and boundary ones) whose walk reaches it. */
  readonly scenario: string;
  /** The rule that must report it, and its problem. */
  readonly rule: string;
  readonly problem: RegExp;
  /** A line the counterexample path must hold (the cut that shows it, or the whole run). */
  readonly step: RegExp;
}

export type { Mock };

const SRC = '../../src';

export const RUNTIME_BUGS: readonly RuntimeBug[] = [
  {
    bug: 'the fold puts results in the order they were journaled (completion), not the order of the calls',
    module: `${SRC}/session/session-state.js`,
    plant: (original) => {
      const applyEntry = original.applyEntry as (
        state: { messages: unknown[] },
        entry: { type: string },
        prompt?: string,
      ) => void;
      return {
        ...original,
        applyEntry: (
          state: { messages: unknown[] },
          entry: { type: string; callId?: string; content?: string },
          prompt?: string,
        ) => {
          if (entry.type !== 'tool_result') return applyEntry(state, entry, prompt);
          state.messages.push(Object.freeze({ role: 'tool', callId: entry.callId, content: entry.content }));
        },
      };
    },
    scenario: 'two reads finish out of order',
    rule: 'journal_order',
    problem: /the fold: message \d+, the result of call-1-1, comes after a later call's result/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a summary compaction ends one message early, splitting a call from its last result',
    module: `${SRC}/context/summarise-turns.js`,
    plant: (original) => {
      const summaryRegion = original.summaryRegion as (
        messages: unknown[],
        keep: number,
      ) => { from: number; to: number } | undefined;
      return {
        ...original,
        summaryRegion: (messages: unknown[], keep: number) => {
          const region = summaryRegion(messages, keep);
          return region === undefined ? undefined : { from: region.from, to: region.to - 1 };
        },
      };
    },
    scenario: 'a summary compaction',
    rule: 'compaction_keeps_pairs',
    problem: /summary request \d+ .*: message \d+ follows calls call-1-2 that have no result/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a handoff keeps the previous agent’s tools',
    module: `${SRC}/agent/handoffs.js`,
    plant: (original) => ({ ...original, activeRegistry: (registry: unknown) => registry }),
    scenario: 'a handoff beside a call to the new agent’s tool',
    rule: 'handoff_swaps_tools',
    problem:
      /request 2 .* offers \[look, transfer_to_ops\] but 'ops' is in charge since the handoff at entry \d+: its tools are \[deploy, look\]/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a call in doubt of a tool that is not idempotent runs again on resume',
    module: `${SRC}/agent/run-machine-input.js`,
    plant: (original) => {
      const runMachineInput = original.runMachineInput as (...args: unknown[]) => { resume: { answers?: unknown } };
      return {
        ...original,
        runMachineInput: (...args: unknown[]) => {
          const input = runMachineInput(...args);
          const { answers: _dropped, ...resume } = input.resume;
          return { ...input, resume };
        },
      };
    },
    scenario: 'a write and a read, then a follow-up',
    rule: 'resume_never_reruns',
    problem:
      /call-1-2 \(save, not idempotent\) ran again after the crash at entry \d+: it was in doubt \(started at entry \d+, no result\)/,
    step: /crash after entry \d+ \(tool_started call-1-2\); Session\.load; resume\(\)/,
  },
  {
    bug: 'the context is compacted one token early (>= for >)',
    module: `${SRC}/machines/context-rules.js`,
    plant: (original) => ({
      ...original,
      contextOverLimit: (context: { limits: { contextLimit?: number }; contextTokens: number }) =>
        context.limits.contextLimit !== undefined && context.contextTokens >= context.limits.contextLimit,
    }),
    scenario: 'context at',
    rule: 'context_boundary',
    problem: /entry \d+ compacts a context of (\d+) tokens, not over context\.maxTokens \1/,
    step: /run\("go"\), run\("next"\) → \d+ entries/,
  },
  {
    bug: 'a tool turn resets the output retries',
    module: `${SRC}/machines/turn-steps.js`,
    plant: async (original) => {
      const { machineSetup } = await import('../../src/machines/machine-setup.js');
      const adopt = original.adoptToolTurn as { assignment: (args: never) => object };
      return {
        ...original,
        adoptToolTurn: machineSetup.assign((args) => ({ ...adopt.assignment(args as never), outputRetriesUsed: 0 })),
      };
    },
    scenario: 'output retries around a tool turn',
    rule: 'output_retries_boundary',
    problem: /entry \d+ sends a failing answer back for the 3th time, over outputRetries 2/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a failing answer sent back is not counted in the usage',
    module: `${SRC}/machines/turn-steps.js`,
    plant: async (original) => {
      const { machineSetup } = await import('../../src/machines/machine-setup.js');
      const { rejectedOutput } = await import('../../src/machines/output-rules.js');
      const { tokensAfterRetry } = await import('../../src/machines/context-rules.js');
      // retryOutput as it is, but for `usage: addUsage(context.usage, turn.usage)`.
      const retryOutput = machineSetup.enqueueActions(({ context, event, enqueue }) => {
        const problem = rejectedOutput(event);
        if (event.type !== 'MODEL_TURN' || problem === undefined) return;
        const { turn } = event;
        enqueue({ type: 'rejectOutput', params: { turn, problem } });
        enqueue.assign({
          turns: context.turns + 1,
          elapsedMs: turn.elapsedMs,
          outputRetriesUsed: context.outputRetriesUsed + 1,
          contextTokens: tokensAfterRetry(context, turn, problem),
        });
      });
      return { ...original, retryOutput };
    },
    scenario: 'failing answers spend the token budget',
    rule: 'budget_boundaries',
    problem: /entry \d+ \(turn_start\) asks the model after 2 turns, 110 tokens: token_budget was reached/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a handoff’s calls run with the new agent’s tools, decided against the old agent’s (unknown, so allowed)',
    module: `${SRC}/agent/run-tool-call.js`,
    plant: async (original) => {
      const { activeRun, boundDeps } = await import('../../src/agent/run-handle.js');
      const runToolCall = original.runToolCall as (...args: unknown[]) => void;
      return {
        ...original,
        runToolCall: (input: unknown, settle: unknown, system: object, abort: unknown) => {
          const deps = boundDeps(system);
          if (deps !== undefined) {
            const run = activeRun(deps);
            if (run.state !== undefined) run.registry = deps.activeTools();
          }
          runToolCall(input, settle, system, abort);
        },
      };
    },
    scenario: 'a handoff beside a call to the new agent’s tool',
    rule: 'policy_kept',
    problem: /the session: call-1-2 \(deploy\) ran without an approval, which the policy \(shell\) asks for/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a sub-agent’s policy widens its parent’s',
    module: `${SRC}/subagents/child-policy.js`,
    plant: (original) => ({ ...original, narrowPolicy: (child: unknown) => child }),
    scenario: 'a sub-agent under the root’s budget',
    rule: 'policy_kept',
    problem: /sub-agent .*: call-1-1 \(deploy\) ran, which the policy \(shell\) denies/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a sub-agent never checks the tree’s budget',
    module: `${SRC}/agent/tree-spend.js`,
    plant: (original) => {
      const TreeSpend = original.TreeSpend as new (...args: never[]) => { stop(): unknown };
      class Unbounded extends TreeSpend {
        override stop(): null {
          return null;
        }
      }
      return { ...original, TreeSpend: Unbounded };
    },
    scenario: 'a sub-agent under the root’s budget',
    rule: 'tree_budget',
    problem:
      /sub-agent .* asks its model at its entry \d+ when the tree has used 130 tokens, over the root's maxTotalTokens 100/,
    step: /run\("go"\) → \d+ entries/,
  },
  {
    bug: 'a run resumed after a crash at the invalid-call limit asks the model again',
    module: `${SRC}/agent/run-machine-input.js`,
    plant: (original) => {
      const runMachineInput = original.runMachineInput as (...args: unknown[]) => { refusal?: { reason: string } };
      return {
        ...original,
        runMachineInput: (...args: unknown[]) => {
          const { refusal, ...input } = runMachineInput(...args);
          return refusal === undefined || refusal.reason === 'invalid_tool_calls' ? input : { ...input, refusal };
        },
      };
    },
    scenario: 'invalid calls at 2',
    rule: 'invalid_calls_boundary',
    problem: /entry \d+ asks the model again after 2 invalid calls of 'look' in a row/,
    step: /crash after entry \d+ \(tool_result call-2-1\); Session\.load; resume\(\)/,
  },
  {
    bug: 'the tool schedule ignores maxParallelTools',
    module: `${SRC}/machines/tool-schedule.js`,
    plant: (original) => {
      const readyRange = original.readyRange as (
        safe: readonly boolean[],
        next: number,
        running: number,
        max: number,
      ) => unknown;
      return {
        ...original,
        readyRange: (safe: readonly boolean[], next: number, running: number) => readyRange(safe, next, running, 64),
      };
    },
    scenario: 'parallel cap at 2',
    rule: 'parallel_cap',
    problem: /3 calls ran at once \(call-1-3 started\), over maxParallelTools 2/,
    step: /run\("go"\) → \d+ entries/,
  },
];
