// The worked example of docs/testing.md, run as written (keep the two in step). The doc imports
// 'agent-harness' and 'agent-harness/testing'; here the same modules come from src/ so that the
// typecheck does not need a build.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolKind } from '../../src/index.js';
import {
  assertLoopInvariants,
  budgetArbitrary,
  formatScript,
  modelCheckAgentMachine,
  propertyRuns,
  runScript,
  scriptArbitrary,
} from '../../src/testing/index.js';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words in a text.',
  kind: ToolKind.READ,
  schema: z.object({ text: z.string() }),
  execute: ({ params }) => String(params.text.split(/\s+/).filter(Boolean).length),
});

describe('word_count inside the agent loop', () => {
  it('keeps the loop invariants whatever the model does', async () => {
    const scripts = scriptArbitrary({
      tools: [{ name: 'word_count', arguments: fc.record({ text: fc.lorem({ maxCount: 5 }) }) }],
    });
    for (const settings of propertyRuns({ default: 50, deep: 500 })) {
      await fc.assert(
        fc.asyncProperty(scripts, budgetArbitrary(), async (script, budget) => {
          const run = await runScript(script, { tools: [wordCount], config: { budget, toolTimeoutMs: 50 } });
          expect(run.thrown).toBeUndefined();
          assertLoopInvariants(run.journal, {
            events: run.events,
            maxTurns: budget.maxTurns,
            context: formatScript(script),
          });
          for (const message of run.session.messages) {
            if (message.role === 'tool') expect(message.content).toMatch(/^(\d+|Error: .+)$/s);
          }
        }),
        settings,
      );
    }
  });

  it('never lets the loop run past a budget policy, on any path', () => {
    const report = modelCheckAgentMachine({ budget: { maxTurns: 3, softLimitRatio: 0.6 }, maxToolCalls: 2 });
    expect(report.violations).toEqual([]);
    expect([...report.stopReasons]).toContain('turn_budget');
  });
});
