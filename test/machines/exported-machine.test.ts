import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { toMermaid } from '../../src/diagram.js';
import { agentMachine, Budget } from '../../src/index.js';
import { tokenUsage } from '../../src/prices.js';

describe('contract §5 the exported machine', () => {
  it('has exactly the states awaitingModel, executingTools, awaitingApproval, observing, budgetCheck, compacting, guardingOutput, done and error', () => {
    expect(Object.keys(agentMachine.config.states ?? {}).sort()).toEqual(
      [
        'awaitingModel',
        'awaitingApproval',
        'budgetCheck',
        'compacting',
        'done',
        'error',
        'executingTools',
        'guardingOutput',
        'observing',
      ].sort(),
    );
    expect(agentMachine.config.initial).toBe('awaitingModel');
  });

  it('done and error are final states', () => {
    expect(agentMachine.states.done?.type).toBe('final');
    expect(agentMachine.states.error?.type).toBe('final');
  });

  it('starts in awaitingModel; a turn without tool calls goes to done, one with calls to executingTools', () => {
    const [start] = initialTransition(agentMachine, { budget: new Budget({ maxTurns: 3 }) });
    expect(start.value).toBe('awaitingModel');
    const turn = (toolCalls: { callId: string; name: string; arguments: Record<string, never> }[]) => ({
      type: 'MODEL_TURN',
      turn: {
        text: 'hi',
        toolCalls,
        concurrencySafe: toolCalls.map(() => true),
        usage: tokenUsage(1, 1),
        elapsedMs: 0,
      },
    });
    const [answered] = transition(agentMachine, start, turn([]) as never);
    expect(answered.value).toBe('done');
    expect(answered.status).toBe('done');
    const [acting] = transition(agentMachine, start, turn([{ callId: 'a', name: 't', arguments: {} }]) as never);
    expect(acting.value).toBe('executingTools');
  });

  it('can be exported as a diagram naming every state', () => {
    const diagram = toMermaid(agentMachine);
    for (const state of ['awaitingModel', 'executingTools', 'observing', 'budgetCheck', 'done', 'error']) {
      expect(diagram).toContain(state);
    }
  });
});
