import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BudgetOptions, TokenUsage } from '../../src/index.js';
import {
  assertLoopInvariants,
  budgetArbitrary,
  byDepth,
  formatScript,
  propertyRuns,
  runScript,
  type Script,
  type ScriptRun,
  scriptArbitrary,
} from '../../src/testing/index.js';
import { budgetDisagreements } from '../support/budget-oracle.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools, OUTPUT_MARK } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

const TOOL_TIMEOUT_MS = 25;
/** Small, so that the `flood` tool's output is cut. */
const MAX_OUTPUT = 120;

function describeCase(script: Script, budget: BudgetOptions, abortAfter: number | undefined): string {
  return `${formatScript(script)}\nbudget: ${JSON.stringify(budget)}\nabort after event: ${abortAfter ?? 'never'}`;
}

/** What the script itself says about usage: the usages of the turns that completed, in order. */
function scriptUsages(script: Script, count: number): TokenUsage[] {
  return script
    .slice(0, count)
    .flatMap((turn) => (turn.kind === 'answer' || turn.kind === 'tools' ? [turn.usage] : []));
}

function checkAgainstScript(run: ScriptRun, script: Script, budget: BudgetOptions): void {
  const recorded = run.journal.flatMap((entry) => (entry.type === 'usage' ? [entry.usage] : []));
  expect(recorded).toEqual(scriptUsages(script, recorded.length));
  expect(run.subscriberEvents).toEqual(run.events);
  expect(budgetDisagreements(run, budget)).toEqual([]);
  for (const message of run.session.messages) {
    if (message.role === 'tool') expect(message.content.length).toBeLessThanOrEqual(MAX_OUTPUT + 40);
  }
  expect(run.client.calls).toBeLessThanOrEqual(budget.maxTurns ?? Number.POSITIVE_INFINITY);
  for (const message of run.session.messages) {
    if (message.role !== 'tool') expect(message.content).not.toContain(OUTPUT_MARK);
  }
}

describe('the agent loop on random scripted models and misbehaving tools', () => {
  it(
    'keeps its invariants, and run() never throws',
    async () => {
      const cwd = tempWorkspace();
      for (const settings of propertyRuns({ default: 150, deep: 2000 })) {
        await fc.assert(
          fc.asyncProperty(
            scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, maxTurns: 5, maxCallsPerTurn: 3 }),
            budgetArbitrary({ maxWallClockMs: true }),
            // Abort after the n-th event in about a third of the runs.
            fc.oneof(
              { arbitrary: fc.constant(undefined), weight: 2 },
              { arbitrary: fc.integer({ min: 1, max: 15 }), weight: 1 },
            ),
            async (script, budget, abortAfter) => {
              const run = await runScript(script, {
                tools: chaosTools(),
                config: { cwd, budget, toolTimeoutMs: TOOL_TIMEOUT_MS, maxToolOutputChars: MAX_OUTPUT },
                ...(abortAfter === undefined ? {} : { abortAfterEvents: abortAfter }),
              });
              const context = describeCase(script, budget, abortAfter);
              if (run.thrown !== undefined) throw new Error(`run() threw ${String(run.thrown)}\n${context}`);
              assertLoopInvariants(run.journal, { events: run.events, maxTurns: budget.maxTurns, context });
              checkAgainstScript(run, script, budget);
            },
          ),
          settings,
        );
      }
    },
    byDepth({ default: 20_000, deep: 600_000 }),
  );
});
