import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';

const SCHEDULE = '../../src/machines/tool-schedule.js';

afterEach(() => {
  vi.doUnmock(SCHEDULE);
  vi.resetModules();
});

/** Three calls in one turn under a cap of 2: the smallest turn where the cap holds a call back. */
const capped = { budget: { maxTurns: 1 }, maxToolCalls: 3, maxParallelTools: 2 } as const;
/** One call per turn, settled ok, failed or invalid, over enough turns to reach a bound of 2. */
/** Final answers checked against a schema, one retry allowed, over enough turns to use it up. */
const structured = { budget: { maxTurns: 3 }, maxToolCalls: 1, structuredOutput: true, outputRetries: 1 } as const;
const invalid = { budget: { maxTurns: 3 }, maxToolCalls: 1, invalidCalls: true, maxInvalidToolCalls: 2 } as const;

describe('the model checker and the answers-and-context rules', () => {
  it('finds nothing wrong with the real machine under a concurrency cap', () => {
    expect(modelCheckAgentMachine(capped).violations).toEqual([]);
  });

  // The planted bug of the invalid-call bound is among VARIANT_BUGS (seeded-variant-bugs).
  it('finds nothing wrong with the real machine when calls may be invalid, and reaches invalid_tool_calls', () => {
    const report = modelCheckAgentMachine(invalid);
    expect(report.violations).toEqual([]);
    expect(report.stopReasons).toContain('invalid_tool_calls');
  });

  it('finds nothing wrong with the real machine asked for structured output, and reaches output_invalid', () => {
    const report = modelCheckAgentMachine(structured);
    expect(report.violations).toEqual([]);
    expect(report.stopReasons).toContain('output_invalid');
  });

  it('reports: one more failing answer is sent back than outputRetries allows', () => {
    const machine = agentMachine.provide({
      guards: {
        outputRejectedWithRetry: ({ context, event }) =>
          event.type === 'MODEL_TURN' &&
          event.turn.outputCheck?.ok === false &&
          context.outputRetriesUsed <= context.limits.outputRetries,
      },
    });
    expectReported(modelCheckAgentMachine({ ...structured, machine }), [
      ['output_retries', /model request \d was made after 2 failing answers, with 1 retries allowed/],
    ]);
  });

  it('reports: the schedule ignores maxParallelTools (a batch starts whole)', async () => {
    vi.resetModules();
    vi.doMock(SCHEDULE, () => ({
      readyRange: (safe: readonly boolean[], next: number, running: number) => {
        if (running > 0 || next >= safe.length) return { from: next, to: next };
        let to = next + 1;
        if (safe[next]) while (to < safe.length && safe[to]) to++;
        return { from: next, to };
      },
    }));
    const { agentMachine } = await import('../../src/machines/agent-machine.js');
    const { modelCheckAgentMachine: check } = await import('../../src/testing/index.js');
    expectReported(check({ ...capped, machine: agentMachine }), [
      ['tool_schedule', /call 2 started while 2 calls ran \(maxParallelTools 2\)/],
    ]);
  });
});
