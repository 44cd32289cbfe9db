import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition } from 'xstate';
import { agentMachine, Budget, type BudgetOptions, type ToolCall, ToolResult } from '../../src/index.js';
import type { AgentMachineEvent, AgentMachineInput, ModelTurn } from '../../src/machine.js';
import { toolActorId } from '../../src/machines/agent-machine.js';

type Snapshot = ReturnType<typeof initialTransition<typeof agentMachine>>[0];

const call = (i: number): ToolCall => ({ callId: `c${i}`, name: 'tool', arguments: {} });

function modelTurn(calls: number, safe = true, text = ''): ModelTurn {
  const toolCalls = Array.from({ length: calls }, (_, i) => call(i));
  return {
    text,
    toolCalls,
    concurrencySafe: toolCalls.map(() => safe),
    usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
    elapsedMs: 1,
  };
}

const modelDone = (turn: ModelTurn): AgentMachineEvent => ({ type: 'MODEL_TURN', turn });
const modelError = (message: string): AgentMachineEvent => ({ type: 'MODEL_ERROR', message });
const settled = (index: number, result = ToolResult.success('ok')): AgentMachineEvent => ({
  type: 'TOOL_SETTLED',
  index,
  result,
  elapsedMs: 2,
});
const abort: AgentMachineEvent = { type: 'ABORT', reason: 'aborted', message: 'stop' };

function start(budget: BudgetOptions = { maxTurns: 5 }) {
  return initialTransition(agentMachine, { budget: new Budget(budget) });
}

function step(snapshot: Snapshot, ...events: AgentMachineEvent[]) {
  let current = snapshot;
  let actions: { type: string }[] = [];
  const spawned: string[] = [];
  for (const event of events) {
    const before = current.children;
    [current, actions] = transition(agentMachine, current, event);
    spawned.push(...Object.keys(current.children).filter((id) => !(id in before)));
  }
  return { snapshot: current, actions: actions.map((action) => action.type), spawned };
}

describe('agentMachine (pure transitions)', () => {
  it('starts without input, on a default budget of 10 turns', () => {
    const [snapshot] = initialTransition(agentMachine, undefined as unknown as AgentMachineInput);
    expect(snapshot.value).toBe('awaitingModel');
    expect(snapshot.context.limits.budget.maxTurns).toBe(10);
  });

  it('starts in awaitingModel with a model request; a turn counts when its answer arrives', () => {
    const [snapshot, actions] = start();
    expect(snapshot.value).toBe('awaitingModel');
    expect(snapshot.context.turns).toBe(0);
    expect(actions.filter((action) => action.type === 'requestModel')).toEqual([
      expect.objectContaining({ params: { toolsWithheld: false } }),
    ]);
    expect(step(snapshot, modelDone(modelTurn(1))).snapshot.context.turns).toBe(1);
  });

  it('a turn without tool calls goes to done with the response', () => {
    const { snapshot, actions } = step(start()[0], modelDone(modelTurn(0, true, 'answer')));
    expect(snapshot.value).toBe('done');
    expect(snapshot.status).toBe('done');
    expect(snapshot.context.response).toBe('answer');
    expect(actions).toEqual(expect.arrayContaining(['recordModelTurn', 'recordTransition', 'finish']));
  });

  it('a turn with tool calls spawns a safe batch together and waits for every result', () => {
    const { snapshot, spawned } = step(start()[0], modelDone(modelTurn(3)));
    expect(snapshot.value).toBe('executingTools');
    expect(spawned).toEqual([toolActorId(0), toolActorId(1), toolActorId(2)]);
    const after2 = step(snapshot, settled(2), settled(0));
    expect(after2.snapshot.value).toBe('executingTools');
    expect(after2.snapshot.context.tools.settled).toBe(2);
  });

  it('runs unsafe calls one at a time', () => {
    const first = step(start()[0], modelDone(modelTurn(2, false)));
    expect(first.spawned).toEqual([toolActorId(0)]);
    const second = step(first.snapshot, settled(0));
    expect(second.spawned).toEqual([toolActorId(1)]);
    expect(Object.keys(second.snapshot.children)).toEqual([toolActorId(1)]); // the settled one is stopped
    expect(second.snapshot.context.tools.nextToStart).toBe(2);
  });

  it('after the last result passes observing and budgetCheck to the next turn', () => {
    const { snapshot, actions } = step(start()[0], modelDone(modelTurn(2)), settled(1), settled(0));
    expect(snapshot.value).toBe('awaitingModel');
    expect(snapshot.context.turns).toBe(1);
    expect(snapshot.children).toEqual({});
    expect(actions).toEqual(expect.arrayContaining(['recordResult', 'reportResults', 'requestModel']));
    // The batch is closed: every call settled and reported, nothing running.
    const { settled: settledCount, reported, running, nextToStart } = snapshot.context.tools;
    expect({ settledCount, reported, running, nextToStart }).toEqual({
      settledCount: 2,
      reported: 2,
      running: 0,
      nextToStart: 2,
    });
  });

  it('ignores a duplicate or out-of-range result', () => {
    const { snapshot } = step(start()[0], modelDone(modelTurn(2)), settled(0), settled(0), settled(7));
    expect(snapshot.value).toBe('executingTools');
    expect(snapshot.context.tools.settled).toBe(1);
  });

  it('stops with turn_budget when the turn count reaches maxTurns after an observation', () => {
    const { snapshot } = step(start({ maxTurns: 1 })[0], modelDone(modelTurn(1)), settled(0));
    expect(snapshot.value).toBe('error');
    expect(snapshot.context.stop?.reason).toBe('turn_budget');
  });

  it('stops with token_budget and cost_budget when use exceeds the limit', () => {
    const tokens = step(start({ maxTotalTokens: 6 })[0], modelDone(modelTurn(1)), settled(0)).snapshot;
    expect(tokens.context.stop?.reason).toBe('token_budget');
    const cost = step(start({ maxCost: 0.000008 })[0], modelDone(modelTurn(1)), settled(0)).snapshot;
    expect(cost.context.stop?.reason).toBe('cost_budget');
  });

  it('a soft limit withholds tools for the next turn and warns once', () => {
    const first = step(start({ maxTurns: 4, softLimitRatio: 0.25 })[0], modelDone(modelTurn(1)), settled(0));
    expect(first.snapshot.value).toBe('awaitingModel');
    expect(first.snapshot.context.toolsWithheld).toBe(true);
    expect(first.actions).toContain('warnBudget');
    const second = step(first.snapshot, modelDone(modelTurn(1)), settled(0));
    expect(second.actions).not.toContain('warnBudget');
  });

  it('a model error ends in error with model_error', () => {
    const { snapshot } = step(start()[0], modelError('cut'));
    expect(snapshot.value).toBe('error');
    expect(snapshot.context.stop).toEqual({ reason: 'model_error', message: 'cut' });
  });

  it('ABORT while awaiting the model ends at once', () => {
    const { snapshot, actions } = step(start()[0], abort);
    expect(snapshot.value).toBe('error');
    expect(snapshot.context.stop?.reason).toBe('aborted');
    expect(actions).toEqual(expect.arrayContaining(['cancelInFlight', 'fail']));
  });

  it('ABORT while tools run cancels them and waits for every result before ending', () => {
    const running = step(start()[0], modelDone(modelTurn(2)), abort);
    expect(running.snapshot.value).toBe('executingTools');
    // Each running call's actor is cancelled (it aborts its own signal).
    expect(running.actions.filter((type) => type === 'xstate.sendTo')).toHaveLength(2);
    expect(running.actions).toContain('stopping');
    const done = step(
      running.snapshot,
      settled(0, ToolResult.error('aborted')),
      settled(1, ToolResult.error('aborted')),
    );
    expect(done.snapshot.value).toBe('error');
    expect(done.snapshot.context.stop?.reason).toBe('aborted');
    expect(done.actions.filter((type) => type === 'recordResult')).toHaveLength(1); // the last settle's
  });

  it('an ABORT accepted during the last allowed turn wins over the turn limit at budgetCheck', () => {
    for (const reason of ['aborted', 'time_budget'] as const) {
      const running = step(start({ maxTurns: 1 })[0], modelDone(modelTurn(1)), { ...abort, reason });
      const { snapshot } = step(running.snapshot, settled(0, ToolResult.error('aborted')));
      expect(snapshot.context.turns).toBe(1);
      expect(snapshot.context.stop).toEqual({ reason, message: 'stop' });
    }
  });

  it('a hard limit wins over a soft limit reached at the same check: no warning, no further turn', () => {
    const { snapshot, actions } = step(
      start({ maxTurns: 1, softLimitRatio: 1 })[0],
      modelDone(modelTurn(1)),
      settled(0),
    );
    expect(snapshot.context.stop?.reason).toBe('turn_budget');
    expect(actions).not.toContain('warnBudget');
    expect(actions).not.toContain('requestModel');
  });

  it('schedules the wall-clock ABORT only when a time budget is set', () => {
    const [, withTime] = start({ maxWallClockMs: 500 });
    expect(withTime.some((action) => action.type === 'xstate.raise')).toBe(true);
    const [, without] = start({ maxTurns: 2 });
    expect(without.some((action) => action.type === 'xstate.raise')).toBe(false);
  });

  it('starts a run with no calls, no results and nothing running', () => {
    const [snapshot] = start();
    expect(snapshot.context).toMatchObject({
      tools: { calls: [], concurrencySafe: [], results: [], answers: [], settled: 0, nextToStart: 0, running: 0 },
      resuming: false,
    });
  });

  it('ignores a result for a call it never started: a negative index, or one past the last call', () => {
    const [initial] = start();
    const { snapshot } = step(initial, modelDone(modelTurn(2)), settled(-1), settled(2));
    expect(snapshot.value).toBe('executingTools');
    expect(snapshot.context.tools.results).toEqual([undefined, undefined]);
    expect(snapshot.context.tools.settled).toBe(0);
  });

  it('outputs the response of a run that answered, and the stop of one that did not', () => {
    const [initial] = start();
    const done = step(initial, modelDone(modelTurn(0, true, 'the answer'))).snapshot;
    expect(done.status).toBe('done');
    expect(done.output).toEqual({ response: 'the answer', stop: undefined });
    const stopped = step(initial, abort).snapshot;
    expect(stopped.output).toEqual({ response: undefined, stop: { reason: 'aborted', message: 'stop' } });
  });

  it('fails a tool turn, naming what to provide, when it runs without a tool actor', () => {
    const actor = createActor(agentMachine, { input: { budget: new Budget({ maxTurns: 5 }) } });
    actor.subscribe({ error: () => {} });
    actor.start();
    actor.send(modelDone(modelTurn(1)));
    const snapshot = actor.getSnapshot();
    expect(snapshot.status).toBe('error');
    expect(String((snapshot.error as Error).message)).toBe(
      "agentMachine: the 'runTool' actor is not provided; run it through Agent or machine.provide()",
    );
  });
});
