import { describe, expect, it } from 'vitest';
import type { ModelTurn } from '../../src/machine.js';
import { type ModelCheckRule, modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';
import { POLICY_BUGS, POLICY_CHECK } from './policy-bugs.js';

describe('the model checker on verdicts of policy functions', () => {
  it('finds no violation in the real machine, with calls a function allows, asks about, denies or throws on', () => {
    const report = modelCheckAgentMachine(POLICY_CHECK);
    expect(report.violations).toEqual([]);
    expect(report.visited).toContain('awaitingApproval');
    expect(report.stopReasons).toContain('suspended');
  });

  it("sends turns whose verdicts are the agent's own, a throw denying with its error, beside fixed rules", () => {
    const turns = new Map<string, ModelTurn>();
    const seeTurns: ModelCheckRule = ({ event, label }) => {
      if (event?.type === 'MODEL_TURN') turns.set(label.split(' ')[0] ?? label, event.turn);
      return undefined;
    };
    const report = modelCheckAgentMachine({
      ...POLICY_CHECK,
      maxToolCalls: 1,
      permissions: ['allow', 'deny'],
      rules: [seeTurns],
    });
    expect(report.violations).toEqual([]);
    expect(turns.get('model(Uf!!')?.verdicts).toEqual([
      {
        permission: 'deny',
        rule: 'change: threw',
        reason: 'the tool policy (change: threw) failed: broke on [call c0]',
        computed: true,
      },
    ]);
    expect(turns.get('model(Sf!')?.verdicts).toEqual([
      { permission: 'deny', rule: 'look: deny', reason: 'refused [call c0]', computed: true },
    ]);
    expect(turns.get('model(Sf?')?.permissions).toEqual(['ask']);
    expect(turns.get('model(U!')?.verdicts).toEqual([
      { permission: 'deny', rule: 'change', reason: "the tool policy denies 'change'", computed: false },
    ]);
    expect(turns.get('model(S')?.verdicts).toEqual([{ permission: 'allow', rule: 'look', computed: false }]);
  });

  for (const { bug, check, reported } of POLICY_BUGS) {
    it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
  }
});
