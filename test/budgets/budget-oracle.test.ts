import { describe, expect, it } from 'vitest';
import { runScript, type Script } from '../../src/testing/index.js';
import { budgetDisagreements } from '../support/budget-oracle.js';
import { chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

const usage = { promptTokens: 300, completionTokens: 100, totalTokens: 400 };
const toolTurn = { kind: 'tools', text: [], calls: [{ name: 'echo', arguments: { text: 'a' } }], usage } as const;
const script: Script = [toolTurn, toolTurn, toolTurn, { kind: 'answer', text: ['ok'], usage }];

describe('the budget oracle of the property runs', () => {
  it('agrees with a run that kept its budget', async () => {
    const run = await runScript(script, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 5 } });
    expect(budgetDisagreements(run, { maxTurns: 5 })).toEqual([]);
  });

  it('notices requests past a turn or token limit, and a missed soft-limit warning', async () => {
    const run = await runScript(script, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 5 } });
    expect(budgetDisagreements(run, { maxTurns: 2 })).toContain('request 3 was made although turn_budget was reached');
    expect(budgetDisagreements(run, { maxTurns: 5, maxTotalTokens: 500 })).toContain(
      'request 3 was made although token_budget was reached',
    );
    expect(budgetDisagreements(run, { maxTurns: 5, softLimitRatio: 0.2 })).toContain(
      'no warning before request 2 at turns 0.2',
    );
  });
});
