import type { ModelCheckOptions } from '../../src/testing/index.js';
import { byDepth } from '../../src/testing/index.js';

/** Most tool calls per model turn (k) and the turn limit, per depth. */
const k = byDepth({ default: 2, deep: 3 });
const turns = byDepth({ default: 3, deep: 4 });

/**
 * One exploration per budget, each with an alphabet that makes its outcomes reachable: soft and
 * hard limits for turns, cost, tokens and time, plus aborts and model errors in all of them.
 * Without `usages`, the explorer sends a small usage and, for each cost and token limit, usages
 * that reach just below, exactly and just above it in one turn (`boundaryUsages`).
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
  'resumed run with a call in doubt, answered without running': {
    budget: { maxTurns: turns },
    maxToolCalls: k,
    resume: {
      calls: [
        { callId: 'r1', name: 'look', arguments: {} },
        { callId: 'r2', name: 'change', arguments: {} },
      ],
      concurrencySafe: [true, false],
      answers: [undefined, { success: false, error: 'interrupted: it may or may not have taken effect' }],
    },
  },
  // Three calls: the smallest turn where a batch of two reads can be half done when a call after
  // it could start (the schedule must wait for the whole batch).
  'three calls per turn': { budget: { maxTurns: 1 }, maxToolCalls: 3 },
  'turn budget with a soft limit': { budget: { maxTurns: turns + 1, softLimitRatio: 0.5 }, maxToolCalls: k },
  // Ratio 1: the soft turn limit trips at the very check where the hard one does.
  'soft and hard turn limits at the same check': { budget: { maxTurns: turns, softLimitRatio: 1 }, maxToolCalls: k },
  'cost budget with a soft limit': {
    budget: { maxTurns: turns, maxCost: 0.0015, softLimitRatio: 0.5 },
    maxToolCalls: k,
  },
  'token budget with a soft limit': {
    budget: { maxTurns: turns, maxTotalTokens: 1000, softLimitRatio: 0.6 },
    maxToolCalls: k,
  },
  'time budget with a soft limit': {
    budget: { maxTurns: turns, maxWallClockMs: 100, softLimitRatio: 0.5 },
    maxToolCalls: k,
    elapsedSteps: [0, 60, 100],
  },
  // 1,000 prompt tokens cost exactly 0.001 and count exactly 1,000 tokens: cost and tokens cross
  // together, on the turn that reaches maxTurns and at the wall clock's limit.
  'every hard limit at once': {
    budget: { maxTurns: 2, maxCost: 0.001, maxTotalTokens: 1000, maxWallClockMs: 100 },
    maxToolCalls: 1,
    elapsedSteps: [0, 100],
  },
};
