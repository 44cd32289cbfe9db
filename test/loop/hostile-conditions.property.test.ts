import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Subscriber } from '../../src/index.js';
import {
  assertLoopInvariants,
  budgetArbitrary,
  byDepth,
  formatScript,
  propertyRuns,
  runScript,
  scriptArbitrary,
} from '../../src/testing/index.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

type SubscriberKind = 'quiet' | 'slow' | 'throws' | 'rejects';

const SUBSCRIBERS: Record<SubscriberKind, Subscriber> = {
  quiet: () => {},
  slow: () => new Promise((resolve) => setTimeout(resolve, 1)),
  throws: () => {
    throw new Error('subscriber bug');
  },
  rejects: async () => {
    throw new Error('async subscriber bug');
  },
};

const subscribersArbitrary = fc.array(fc.constantFrom<SubscriberKind>('quiet', 'slow', 'throws', 'rejects'), {
  maxLength: 3,
});

describe('the agent loop under hostile conditions', () => {
  it(
    'keeps its invariants with stalled model streams, a wall clock and misbehaving subscribers',
    async () => {
      const cwd = tempWorkspace();
      for (const settings of propertyRuns({ default: 60, deep: 1000 })) {
        await fc.assert(
          fc.asyncProperty(
            scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, stallingTurns: true }),
            // Every run has a wall-clock budget, so stalled streams and hung tools always end.
            budgetArbitrary({ maxWallClockMs: true }).map((budget) => ({ maxWallClockMs: 40, ...budget })),
            subscribersArbitrary,
            async (script, budget, kinds) => {
              let failures = 0;
              const run = await runScript(script, {
                tools: chaosTools(),
                config: { cwd, budget, toolTimeoutMs: 20 },
                subscribers: kinds.map((kind) => SUBSCRIBERS[kind]),
                onSubscriberError: () => {
                  failures += 1;
                },
              });
              const context = `${formatScript(script)}\nbudget: ${JSON.stringify(budget)}\nsubscribers: ${kinds.join(', ')}`;
              if (run.thrown !== undefined) throw new Error(`run() threw ${String(run.thrown)}\n${context}`);
              assertLoopInvariants(run.journal, { events: run.events, maxTurns: budget.maxTurns, context });
              expect(run.subscriberEvents).toEqual(run.events);
              const failing = kinds.filter((kind) => kind === 'throws' || kind === 'rejects').length;
              expect(failures).toBe(failing * run.events.length);
            },
          ),
          settings,
        );
      }
    },
    byDepth({ default: 20_000, deep: 600_000 }),
  );
});
