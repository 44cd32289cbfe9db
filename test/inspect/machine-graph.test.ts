import { describe, expect, it } from 'vitest';
import { createMachine, fromPromise, setup, spawnChild } from 'xstate';
import { machineGraph } from '../../src/diagram.js';
import { agentMachine } from '../../src/index.js';

describe('machineGraph(agentMachine)', () => {
  const graph = machineGraph(agentMachine);

  it('lists every state of the machine, with the final ones marked', () => {
    expect(graph.initial).toBe('awaitingModel');
    expect(graph.states.map((s) => s.id)).toEqual(Object.keys(agentMachine.root.states));
    expect(graph.states.filter((s) => s.final).map((s) => s.id)).toEqual(['done', 'error']);
  });

  it('labels the spawned tool actors on executingTools (the model request is an effect, not an actor)', () => {
    const byId = Object.fromEntries(graph.states.map((s) => [s.id, s]));
    expect(byId.awaitingModel?.invokes).toEqual([]);
    expect(byId.executingTools?.spawns).toEqual(['runTool']);
    expect(byId.awaitingModel?.spawns).toEqual([]);
    expect(byId.observing?.spawns).toEqual([]);
    expect(graph.actors).toEqual([{ src: 'runTool', invokedIn: [], spawned: true }]);
  });

  it('names the guard on each guarded transition, and every setup guard is used by some edge', () => {
    const guarded = graph.edges.filter((e) => e.guard !== undefined).map((e) => `${e.from}->${e.to}:${e.guard}`);
    expect(guarded).toContain('awaitingModel->executingTools:turnAskedForTools');
    expect(guarded).toContain('budgetCheck->error:hardLimitReached');
    const used = new Set(graph.edges.map((e) => e.guard));
    for (const guard of graph.guards) expect(used.has(guard)).toBe(true);
  });

  it('copies root transitions (ABORT) onto every non-final state that does not handle the event', () => {
    const aborts = graph.edges.filter((e) => e.event === 'ABORT');
    expect(aborts.map((e) => `${e.from}->${e.to}`)).toEqual([
      'awaitingModel->error',
      'executingTools->executingTools',
      'awaitingApproval->awaitingApproval',
      'observing->error',
      'budgetCheck->error',
      'compacting->error',
      'guardingOutput->error',
    ]);
  });
});

describe('machineGraph on other machines', () => {
  it('reads a machine without setup: no actors, no guards, targetless edges stay put', () => {
    const machine = createMachine({
      id: 'toggle',
      initial: 'off',
      states: { off: { on: { FLIP: 'on', PING: {} } }, on: { on: { FLIP: 'off' } } },
    });
    const graph = machineGraph(machine);
    expect(graph.actors).toEqual([]);
    expect(graph.guards).toEqual([]);
    expect(graph.edges).toContainEqual({ from: 'off', to: 'off', event: 'PING', actions: [] });
  });

  it('reads the actors a state declares in meta.spawns (spawns made inside assign cannot be read)', () => {
    const machine = setup({ actors: { job: fromPromise(async () => 1) } }).createMachine({
      initial: 'busy',
      states: { busy: { meta: { spawns: ['job', 42] } }, idle: {} },
    });
    expect(machineGraph(machine).states.map((s) => s.spawns)).toEqual([['job'], []]);
  });

  it('spawns nothing when every setup actor is invoked', () => {
    const machine = setup({ actors: { job: createMachine({}) } }).createMachine({
      initial: 'busy',
      states: { busy: { invoke: { src: 'job' } } },
    });
    expect(machineGraph(machine).states[0]).toMatchObject({ invokes: ['job'], spawns: [] });
  });

  it('finds actors spawned by a spawnChild action or inside enqueueActions, and no others', () => {
    const job = createMachine({});
    const machine = setup({ actors: { job, helper: job } }).createMachine({
      initial: 'a',
      states: {
        a: { entry: spawnChild('job'), on: { GO: 'b' } },
        b: {
          entry: setup({}).enqueueActions(({ enqueue }) => enqueue.assign({})),
          on: {
            MORE: {
              actions: setup({ actors: { helper: job } }).enqueueActions(({ enqueue }) => enqueue.spawnChild('helper')),
            },
          },
        },
      },
    });
    const graph = machineGraph(machine);
    expect(graph.states.map((s) => [s.id, s.spawns])).toEqual([
      ['a', ['job']],
      ['b', ['helper']],
    ]);
    expect(graph.actors.every((a) => a.spawned)).toBe(true);
  });
});
