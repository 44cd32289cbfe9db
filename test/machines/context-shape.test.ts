import { describe, expect, it } from 'vitest';
import { createActor, initialTransition } from 'xstate';
import { Budget } from '../../src/config/budget.js';
import { agentMachine } from '../../src/machines/agent-machine.js';

// XState copies the context with `Object.assign({}, context, update)` on every assign, and V8
// makes an object that gains 20 or more keys that way a hash table ("dictionary mode"): every
// later read and copy of the context is then slower (2.4× the CPU per turn in a minimal machine). The
// context groups fields that change together to stay below that (docs/architecture.md).
const MAX_CONTEXT_KEYS = 19;

describe('the machine context', () => {
  it('has fewer than 20 top-level keys, in its first state and after a step', () => {
    const [start] = initialTransition(agentMachine, { budget: new Budget({ maxTurns: 3 }) });
    expect(Object.keys(start.context).length).toBeLessThanOrEqual(MAX_CONTEXT_KEYS);
    const actor = createActor(agentMachine.provide({ actions: { requestModel: () => {} } }), {
      input: { budget: new Budget({ maxTurns: 3 }) },
    });
    actor.start();
    actor.send({
      type: 'MODEL_TURN',
      turn: {
        text: 'done',
        toolCalls: [],
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        concurrencySafe: [],
        elapsedMs: 0,
      },
    });
    expect(actor.getSnapshot().value).toBe('done');
    expect(Object.keys(actor.getSnapshot().context).length).toBeLessThanOrEqual(MAX_CONTEXT_KEYS);
  });
});
