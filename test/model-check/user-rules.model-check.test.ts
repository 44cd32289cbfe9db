// The user-rule example of docs/testing.md, run as written (keep the two in step).

import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { type ModelCheckRule, modelCheckAgentMachine } from '../../src/testing/index.js';

/** Our policy: once a run has used more than 1,000 tokens, the model is offered no tools. */
const noToolsPast1000Tokens: ModelCheckRule = (_step, trace) => {
  const request = trace.find((effect) => effect.action === 'requestModel');
  if (request === undefined) return undefined;
  const { toolsWithheld } = request.params as { toolsWithheld: boolean };
  const used = request.context.usage.totalTokens;
  return used > 1000 && !toolsWithheld ? `tools offered to the model after ${used} tokens` : undefined;
};

const options = {
  // The soft limit (half of 2,000 tokens) is what keeps the policy.
  budget: { maxTurns: 3, maxTotalTokens: 2000, softLimitRatio: 0.5 },
  usages: [{ promptTokens: 600, completionTokens: 0, totalTokens: 600 }],
  maxToolCalls: 1,
  rules: [noToolsPast1000Tokens],
};

describe('a rule of your own in the model checker', () => {
  it('holds on the real machine', () => {
    expect(modelCheckAgentMachine(options).violations).toEqual([]);
  });

  it('reports a planted bug by the rule name, with the shortest path', () => {
    const broken = agentMachine.provide({ guards: { softLimitReached: () => false } });
    const report = modelCheckAgentMachine({ ...options, machine: broken });
    expect(report.violations).toContainEqual({
      rule: 'noToolsPast1000Tokens',
      problem: 'tools offered to the model after 1200 tokens',
      path: ['model(S u600+0 t0)', 'settle#0(ok t0)', 'model(S u600+0 t0)', 'settle#0(ok t0)'],
    });
  });

  it('gets every explored transition, the start included, with the monitor of the path before it', () => {
    const seen: string[] = [];
    const record: ModelCheckRule = (step, _trace, path) => {
      if (step.event === undefined) seen.push(`start in ${step.to.value}, ${path.requests} requests`);
      else if (step.role === 'matters' && step.event.type === 'MODEL_TURN' && step.from?.value === 'awaitingModel')
        seen.push(`model turn after ${path.requests} request(s)`);
      return undefined;
    };
    modelCheckAgentMachine({ budget: { maxTurns: 1 }, maxToolCalls: 1, usages: options.usages, rules: [record] });
    expect(new Set(seen)).toEqual(new Set(['start in awaitingModel, 0 requests', 'model turn after 1 request(s)']));
  });

  it('names an anonymous rule by its place in the list', () => {
    const report = modelCheckAgentMachine({
      budget: { maxTurns: 1 },
      maxToolCalls: 1,
      rules: [() => undefined, () => 'always'],
    });
    expect(report.violations.map((v) => v.rule)).toEqual(['rules[1]']);
  });
});
