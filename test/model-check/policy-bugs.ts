import { enqueueActions } from 'xstate';
import type { ModelTurn } from '../../src/machine.js';
import type { ModelCheckOptions } from '../../src/testing/index.js';
import { on, type StateConfig, variant, withOn } from './machine-variants.js';
import type { PlantedBug } from './planted-bugs.js';

/** One turn of one or two calls, each allowed or judged by a policy function (allow, ask, deny, throw). */
export const POLICY_CHECK: Omit<ModelCheckOptions, 'machine'> = {
  budget: { maxTurns: 1 },
  maxToolCalls: 2,
  policyVerdicts: true,
};

type Collect = (args: Record<string, unknown> & { event: { type: string; turn?: ModelTurn } }, params: unknown) => void;

/**
 * The machine with its gated tool turn (`acceptGatedToolTurn`) reading a changed turn: how a
 * test plants a bug in how the machine reads the policy's verdicts.
 */
function readingTurn(change: (turn: ModelTurn) => ModelTurn) {
  return variant(({ awaitingModel }) => {
    const handlers = on(awaitingModel, 'MODEL_TURN').map((transition: StateConfig) => {
      if (transition.guard !== 'turnAskedForGatedTools') return transition;
      const { collect } = transition.actions as { collect: Collect };
      const misread = enqueueActions(((args: Parameters<Collect>[0], params: unknown) => {
        const { event } = args;
        const turn = event.type === 'MODEL_TURN' && event.turn !== undefined ? change(event.turn) : undefined;
        collect(turn === undefined ? args : { ...args, event: { ...event, turn } }, params);
      }) as never);
      return { ...transition, actions: misread };
    });
    return { awaitingModel: withOn(awaitingModel, 'MODEL_TURN', handlers) };
  });
}

/** A function's `deny` (its answer, or its throw) read as `allow`. */
const functionDenyAllows = readingTurn((turn) => {
  const verdicts = turn.verdicts?.map((verdict) =>
    verdict.computed && verdict.permission === 'deny' ? { ...verdict, permission: 'allow' as const } : verdict,
  );
  return { ...turn, verdicts, permissions: verdicts?.map((verdict) => verdict.permission) };
});

/** Each call's verdict (its rule and denial) taken from the next call's: an off-by-one in the calls' order. */
const verdictOnWrongCall = readingTurn((turn) => {
  const verdicts = turn.verdicts;
  if (verdicts === undefined) return turn;
  return { ...turn, verdicts: verdicts.map((_, i) => verdicts[(i + 1) % verdicts.length] ?? verdicts[i]) } as ModelTurn;
});

/** Bugs in how the machine reads policy functions' verdicts, each with what the checker must say. */
export const POLICY_BUGS: readonly PlantedBug[] = [
  {
    bug: "a policy function's deny (or throw) read as allow: the call runs",
    check: { ...POLICY_CHECK, machine: functionDenyAllows },
    reported: [['denied_never_runs', /call \d ran although it was denied/]],
  },
  {
    bug: "a policy function's verdict applied to the wrong call",
    check: { ...POLICY_CHECK, machine: verdictOnWrongCall },
    reported: [['denied_never_runs', /call \d \(c\d\) was denied with the verdict on c\d/]],
  },
];
