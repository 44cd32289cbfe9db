import { createActor, toPromise } from 'xstate';
import { agentMachine, Budget, ToolResult } from '../src/index.js';
import type { ModelTurn } from '../src/machine.js';
import { toolActorLogic } from '../src/machines/tool-actor-logic.js';
import { type Contender, expectComplete, oncePerToolTurns } from './contender.js';
import { callIdOf, FINAL_ANSWER, TURN_USAGE } from './workload.js';

const OK = ToolResult.success('ok');

function scriptedTurn(step: number, toolTurns: number): ModelTurn {
  if (step > toolTurns)
    return { text: FINAL_ANSWER, toolCalls: [], concurrencySafe: [], usage: TURN_USAGE, elapsedMs: 0 };
  const call = { callId: callIdOf(step), name: 'checkpoint', arguments: { step } };
  return { text: '', toolCalls: [call], concurrencySafe: [true], usage: TURN_USAGE, elapsedMs: 0 };
}

/** The agent machine with effects that only answer: scripted model turns, tools that settle at once. */
function machineFor(toolTurns: number) {
  return agentMachine.provide({
    actors: {
      runTool: toolActorLogic((input, settle) => {
        void Promise.resolve().then(() =>
          settle({ type: 'TOOL_SETTLED', index: input.index, result: OK, elapsedMs: 0 }),
        );
      }),
    },
    actions: {
      // The machine counts a turn when its answer arrives, so the request is turn `turns + 1`.
      requestModel: ({ context, self }) => {
        const turn = scriptedTurn(context.turns + 1, toolTurns);
        void Promise.resolve().then(() => self.send({ type: 'MODEL_TURN', turn }));
      },
    },
  });
}

/**
 * The XState share of the harness's cost: `agentMachine` itself, with no-op effects and actors
 * that answer at once (no session, bus, registry or zod). Not a way to use the library — a
 * measure of what the interpreter costs per turn for this machine.
 */
export function machineOnlyContender(): Contender {
  // Provided once per T, as the harness provides its machine once for all agents.
  const machineOf = oncePerToolTurns(machineFor);
  return {
    name: 'agentMachine alone',
    async run(toolTurns) {
      const machine = machineOf(toolTurns);
      const actor = createActor(machine, { input: { budget: new Budget({ maxTurns: toolTurns + 1 }) } });
      actor.start();
      const output = (await toPromise(actor)) as { response?: string };
      return expectComplete('agentMachine alone', output.response, actor.getSnapshot().context.turns, toolTurns);
    },
  };
}
