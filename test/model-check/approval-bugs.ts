import { assign, enqueueActions } from 'xstate';
import { agentMachine } from '../../src/index.js';
import type { AgentContext } from '../../src/machines/agent-machine-types.js';
import { byDepth, type ModelCheckOptions } from '../../src/testing/index.js';
import { listOf, on, variant, withOn } from './machine-variants.js';
import type { PlantedBug } from './planted-bugs.js';

/** One turn (two when deep) of one or two calls that may ask, and a resumed call that asks. */
const asking: Omit<ModelCheckOptions, 'machine'> = {
  budget: { maxTurns: byDepth({ default: 1, deep: 2 }) },
  maxToolCalls: 2,
  permissions: ['allow', 'ask'],
};
const resumedAsk: Omit<ModelCheckOptions, 'machine'> = {
  budget: { maxTurns: 1 },
  maxToolCalls: 1,
  resume: { calls: [{ callId: 'r0', name: 'change', arguments: {} }], concurrencySafe: [false], permissions: ['ask'] },
};

/** The checks the approval bugs are planted under (the real machine passes each). */
export const APPROVAL_CHECKS: readonly Omit<ModelCheckOptions, 'machine'>[] = [asking, resumedAsk];

/** DENY handled as APPROVE: a declined tool still runs (Mastra #20470). */
const denyRuns = enqueueActions(({ event, enqueue }) => {
  const { callId } = event as { callId?: string };
  if (event.type === 'DENY') enqueue.raise({ type: 'APPROVE', callId } as never);
});

/** A resumed run that forgets the policy before it starts its pending calls (Claude #370). */
const forgetPolicy = assign(({ context }: { context: AgentContext }) => ({
  tools: { ...context.tools, permissions: [], decisions: [] },
}));

/** Bugs of the approval gate, each with what the checker must say. */
export const APPROVAL_BUGS: readonly PlantedBug[] = [
  {
    bug: 'a declined tool still runs (DENY treated as APPROVE)',
    check: {
      ...asking,
      machine: variant(({ executingTools, awaitingApproval }) => ({
        executingTools: withOn(executingTools, 'DENY', { actions: denyRuns }),
        awaitingApproval: withOn(awaitingApproval, 'DENY', { actions: denyRuns }),
      })),
    },
    reported: [['denied_never_runs', /call 0 ran although it was denied/]],
  },
  {
    bug: 'resume skips the gate: pending calls start without asking again',
    check: {
      ...resumedAsk,
      machine: variant(({ awaitingModel }) => {
        const always = listOf(awaitingModel, 'always').map((t) => ({
          ...(t as object),
          actions: [forgetPolicy, ...listOf(t as Record<string, unknown>, 'actions')],
        }));
        return { awaitingModel: { ...awaitingModel, always } };
      }),
    },
    reported: [['approval_gate', /call 0 started while it waited for approval/]],
  },
  {
    bug: 'the gate lets every call through (no call waits)',
    check: {
      ...asking,
      machine: variant(({ executingTools }) => ({
        executingTools: { ...executingTools, always: listOf(executingTools, 'always').slice(0, 1) },
      })).provide({ guards: { blockedOnApproval: () => false } }),
    },
    reported: [['unreachable_state', /'awaitingApproval' is unreachable/]],
  },
  {
    bug: 'suspend accepted while tools run',
    check: {
      ...asking,
      machine: variant(({ executingTools, awaitingApproval }) => ({
        executingTools: withOn(executingTools, 'SUSPEND', on(awaitingApproval, 'SUSPEND')),
      })),
    },
    reported: [['suspend_pending', /suspended while call \d ran/]],
  },
];

export { agentMachine };
