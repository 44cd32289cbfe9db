import type { ModelCheckOptions } from '../../src/testing/index.js';
import { byDepth } from '../../src/testing/index.js';

const small = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
/** Costs 0.001 at the default rates and counts 700 tokens. */
const large = { promptTokens: 400, completionTokens: 300, totalTokens: 700 };

/** Most tool calls per model turn (k) and the turn limit, per depth. */
const k = byDepth({ default: 2, deep: 3 });
const turns = byDepth({ default: 3, deep: 4 });

/**
 * One exploration per budget, each with an alphabet that makes its outcomes reachable: soft and
 * hard limits for turns, cost, tokens and time, plus aborts and model errors in all of them.
 */
export const SCENARIOS: Readonly<Record<string, ModelCheckOptions>> = {
  'turn budget': { budget: { maxTurns: turns }, maxToolCalls: k },
  'resumed run with two unanswered calls': {
    budget: { maxTurns: turns },
    maxToolCalls: k,
    resume: {
      calls: [
        { callId: 'r1', name: 'look', arguments: {} },
        { callId: 'r2', name: 'change', arguments: {} },
      ],
      concurrencySafe: [true, false],
    },
  },
  'turn budget with a soft limit': { budget: { maxTurns: turns + 1, softLimitRatio: 0.5 }, maxToolCalls: k },
  'cost budget with a soft limit': {
    budget: { maxTurns: turns, maxCost: 0.0015, softLimitRatio: 0.5 },
    maxToolCalls: k,
    usages: [small, large],
  },
  'token budget with a soft limit': {
    budget: { maxTurns: turns, maxTotalTokens: 1000, softLimitRatio: 0.6 },
    maxToolCalls: k,
    usages: [small, large],
  },
  'time budget with a soft limit': {
    budget: { maxTurns: turns, maxWallClockMs: 100, softLimitRatio: 0.5 },
    maxToolCalls: k,
    elapsedSteps: [0, 60, 100],
  },
};
