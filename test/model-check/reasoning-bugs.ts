import type { ReasoningContent } from '../../src/core/messages.js';
import type { ModelTurn } from '../../src/machine.js';
import { recordModelTurn } from '../../src/machines/turn-steps.js';
import type { ModelCheckOptions } from '../../src/testing/index.js';
import { listOf, mappingEffect, on, variant, withOn } from './machine-variants.js';
import type { PlantedBug } from './planted-bugs.js';

/** A small exploration whose model turns carry reasoning (answers checked against a schema too). */
export const REASONING_CHECK: ModelCheckOptions = {
  budget: { maxTurns: 2 },
  maxToolCalls: 1,
  structuredOutput: true,
  reasoning: true,
};

/**
 * The machine with a planted bug: each `MODEL_TURN` transition records the turn as `alter`
 * changes it, instead of the event's own turn.
 */
function recordingAltered(alter: (turn: ModelTurn) => ModelTurn) {
  return variant((states) => {
    const awaiting = states.awaitingModel;
    const handlers = on(awaiting, 'MODEL_TURN').map((transition) => ({
      ...transition,
      actions: listOf(transition, 'actions').map((action) =>
        (action as { type?: string }).type === 'recordModelTurn'
          ? {
              type: 'recordModelTurn',
              params: ({ event }: { event: { turn: ModelTurn } }) => ({ turn: alter(event.turn) }),
            }
          : action,
      ),
    }));
    return { awaitingModel: withOn(awaiting, 'MODEL_TURN', handlers) };
  });
}

/** {@link REASONING_CHECK} with every call asking for approval: each tool turn takes the gated path (`acceptGatedToolTurn`). */
export const REASONING_GATED_CHECK: ModelCheckOptions = { ...REASONING_CHECK, permissions: ['ask'] };

/**
 * The machine with a planted bug on the gated path: the `MODEL_TURN` transition of a tool turn
 * whose calls ask for approval records the turn (the `recordModelTurn` that `acceptGatedToolTurn`
 * enqueues) as `alter` changes it.
 */
function gatedRecordingAltered(alter: (turn: ModelTurn) => ModelTurn) {
  return variant((states) => {
    const awaiting = states.awaitingModel;
    const handlers = on(awaiting, 'MODEL_TURN').map((transition) =>
      transition.guard === 'turnAskedForGatedTools'
        ? {
            ...transition,
            actions: listOf(transition, 'actions').map((action) =>
              mappingEffect(action, 'recordModelTurn', (params) => ({
                turn: alter((params as { turn: ModelTurn }).turn),
              })),
            ),
          }
        : transition,
    );
    return { awaitingModel: withOn(awaiting, 'MODEL_TURN', handlers) };
  });
}

/** The machine with a planted bug: a tool turn whose calls ask records its turn, then `acceptGatedToolTurn` records it again. */
const gatedRecordedTwice = variant((states) => {
  const awaiting = states.awaitingModel;
  const handlers = on(awaiting, 'MODEL_TURN').map((transition) =>
    transition.guard === 'turnAskedForGatedTools'
      ? { ...transition, actions: [recordModelTurn, ...listOf(transition, 'actions')] }
      : transition,
  );
  return { awaitingModel: withOn(awaiting, 'MODEL_TURN', handlers) };
});

/** The turn with its reasoning parts changed by `plant`. */
function withParts(turn: ModelTurn, plant: (parts: ReasoningContent[]) => ReasoningContent[]): ModelTurn {
  return turn.reasoning === undefined ? turn : { ...turn, reasoning: plant([...turn.reasoning]) };
}

function unsigned(part: ReasoningContent): ReasoningContent {
  if (part.type !== 'reasoning') return part;
  const { signature: _dropped, ...rest } = part;
  return rest;
}

const CHANGED = /'recordModelTurn' records the turn's reasoning changed/;

/** Bugs of the turn the machine records, each found by `reasoning_integrity`. */
export const REASONING_BUGS: readonly PlantedBug[] = [
  {
    bug: '(a) the recorded turn drops a reasoning signature',
    check: { ...REASONING_CHECK, machine: recordingAltered((turn) => withParts(turn, (parts) => parts.map(unsigned))) },
    reported: [['reasoning_integrity', CHANGED]],
  },
  {
    bug: '(b) the recorded turn reorders its reasoning parts',
    check: { ...REASONING_CHECK, machine: recordingAltered((turn) => withParts(turn, (parts) => parts.reverse())) },
    reported: [['reasoning_integrity', CHANGED]],
  },
  {
    bug: '(c) the recorded turn relabels its reasoning to another provider (which would send it there)',
    check: {
      ...REASONING_CHECK,
      machine: recordingAltered((turn) =>
        withParts(turn, (parts) => parts.map((part) => ({ ...part, provider: 'other' }))),
      ),
    },
    reported: [['reasoning_integrity', CHANGED]],
  },
  {
    bug: 'the recorded turn loses its reasoning (separated from its tool calls)',
    check: { ...REASONING_CHECK, machine: recordingAltered(({ reasoning: _dropped, ...turn }) => turn) },
    reported: [['reasoning_integrity', CHANGED]],
  },
  {
    bug: 'the recorded turn keeps its reasoning but loses its tool calls',
    check: {
      ...REASONING_CHECK,
      machine: recordingAltered((turn) => ({ ...turn, toolCalls: [] })),
    },
    reported: [['reasoning_integrity', /'recordModelTurn' records the turn's reasoning apart from its tool calls/]],
  },
  {
    bug: 'the turn recorded on the approval path (calls that ask) drops a reasoning signature',
    check: {
      ...REASONING_GATED_CHECK,
      machine: gatedRecordingAltered((turn) => withParts(turn, (parts) => parts.map(unsigned))),
    },
    reported: [['reasoning_integrity', CHANGED]],
  },
  {
    bug: 'the turn recorded on the approval path keeps its reasoning but loses its tool calls',
    check: { ...REASONING_GATED_CHECK, machine: gatedRecordingAltered((turn) => ({ ...turn, toolCalls: [] })) },
    reported: [['reasoning_integrity', /'recordModelTurn' records the turn's reasoning apart from its tool calls/]],
  },
  {
    bug: 'the turn of calls that ask is recorded twice (its reasoning and calls would go back twice)',
    check: { ...REASONING_GATED_CHECK, machine: gatedRecordedTwice },
    reported: [['reasoning_integrity', /the turn is recorded 2 times \('recordModelTurn', 'recordModelTurn'\)/]],
  },
];
