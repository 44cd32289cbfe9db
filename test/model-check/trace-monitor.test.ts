import { describe, expect, it } from 'vitest';
import { getMicrosteps, initialTransition, transition } from 'xstate';
import { agentMachine, Budget } from '../../src/index.js';
import { tokenUsage } from '../../src/prices.js';
import { limitsOf } from '../../src/testing/model-check/budget-oracle.js';
import { traceOf } from '../../src/testing/model-check/state-graph.js';
import { INITIAL_MONITOR, monitorTrace, SPAWNED } from '../../src/testing/model-check/trace-monitor.js';

const limits = {
  budget: limitsOf(new Budget({ maxTurns: 3 })),
  maxParallelTools: 8,
  maxInvalidToolCalls: 3,
  outputRetries: 2,
};
const turn = {
  text: '',
  toolCalls: [
    { callId: 'a', name: 'look', arguments: {} },
    { callId: 'b', name: 'look', arguments: {} },
  ],
  concurrencySafe: [true, true],
  usage: tokenUsage(1, 1),
  elapsedMs: 0,
};

describe('the model checker trace of spawns', () => {
  it('lists the tool actors a transition spawned, after the effects of their microstep', () => {
    const [start] = initialTransition(agentMachine, { budget: new Budget({ maxTurns: 3 }) });
    const microsteps = getMicrosteps(agentMachine, start, { type: 'MODEL_TURN', turn });
    const trace = traceOf(microsteps, start.children);
    const spawned = trace.filter((step) => step.action === SPAWNED).map((step) => step.params);
    expect(spawned).toEqual([
      { id: 'tool-0', index: 0 },
      { id: 'tool-1', index: 1 },
    ]);
    expect(trace.findIndex((step) => step.action === 'recordModelTurn')).toBeLessThan(
      trace.findIndex((step) => step.action === SPAWNED),
    );
    const [acting] = transition(agentMachine, start, { type: 'MODEL_TURN', turn });
    const settle = { type: 'TOOL_SETTLED', index: 0, result: { success: true, output: 'ok' }, elapsedMs: 0 } as const;
    expect(traceOf(getMicrosteps(agentMachine, acting, settle), acting.children)).not.toContainEqual(
      expect.objectContaining({ action: SPAWNED }),
    );
  });

  it('flags a spawn with no call awaiting a result, and one after the run ended', () => {
    const context = initialTransition(agentMachine, { budget: new Budget({ maxTurns: 3 }) })[0].context;
    const spawn = { action: SPAWNED, params: { id: 'tool-0' }, context };
    const problems = (monitor: typeof INITIAL_MONITOR) =>
      monitorTrace(monitor, [spawn], limits)[1].map((f) => f.problem);
    expect(problems(INITIAL_MONITOR)).toEqual(['a tool actor was spawned with no tool call awaiting a result']);
    expect(problems({ ...INITIAL_MONITOR, pendingCalls: 1 })).toEqual([]);
    expect(problems({ ...INITIAL_MONITOR, pendingCalls: 1, ended: true })).toEqual([
      `'${SPAWNED}' after the run ended`,
    ]);
  });
});
