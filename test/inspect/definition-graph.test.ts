import { describe, expect, it } from 'vitest';
import { graphFromDefinition } from '../../src/diagram/definition-graph.js';
import { machineGraph } from '../../src/diagram.js';
import { agentMachine } from '../../src/index.js';

/** What @statelyai/inspect sends as an actor's definition: the config, functions as {type: name}. */
function serialised(config: unknown): unknown {
  return JSON.parse(
    JSON.stringify(config, (_key, value: unknown) =>
      typeof value === 'function' ? { type: (value as { name: string }).name } : value,
    ),
  );
}

describe('graphFromDefinition', () => {
  it("reads the agent machine's serialised config into the same states and edges as machineGraph", () => {
    const fromDefinition = graphFromDefinition(serialised(agentMachine.config));
    const fromMachine = machineGraph(agentMachine);
    expect(fromDefinition?.initial).toBe(fromMachine.initial);
    expect(fromDefinition?.states.map((s) => [s.id, s.final, s.invokes, s.spawns])).toEqual(
      fromMachine.states.map((s) => [s.id, s.final, s.invokes, s.spawns]),
    );
    const shape = (e: { from: string; to: string; event: string; guard?: string }) => [e.from, e.to, e.event, e.guard];
    expect(fromDefinition?.edges.map(shape)).toEqual(fromMachine.edges.map(shape));
  });

  it('resolves relative and #id targets to top-level states, and targetless transitions stay', () => {
    const graph = graphFromDefinition({
      id: 'm',
      initial: 'a',
      states: {
        a: { on: { X: '#m.b', Y: { actions: [{ type: 'log' }] }, Z: {} } },
        b: { on: { BACK: 'a.inner', ROOT: '.a' } },
      },
    });
    expect(graph?.edges.map((e) => `${e.from}-${e.event}->${e.to}`)).toEqual([
      'a-X->b',
      'a-Y->a',
      'a-Z->a',
      'b-BACK->a',
      'b-ROOT->a',
    ]);
  });

  it('is undefined for something that is not a machine config', () => {
    expect(graphFromDefinition({ id: 'callback actor' })).toBeUndefined();
    expect(graphFromDefinition('nope')).toBeUndefined();
  });
});
