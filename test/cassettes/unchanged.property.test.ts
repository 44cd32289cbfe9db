import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, Config, type ConfigOptions, ToolRegistry } from '../../src/index.js';
import {
  budgetArbitrary,
  byDepth,
  formatCassetteReport,
  formatScript,
  propertyRuns,
  recordCassette,
  replayCassette,
  ScriptedClient,
  scriptArbitrary,
  scriptedTurns,
} from '../../src/testing/index.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

describe('replay cassettes over the script generators', () => {
  it('keeps found counterexamples fixed: two concurrent calls that both start before either settles', async () => {
    const options: ConfigOptions = { cwd: tempWorkspace(), budget: { maxTurns: 1 }, toolTimeoutMs: 25 };
    const call = { name: 'hang', arguments: { text: '' } };
    const script = [
      {
        kind: 'tools' as const,
        text: [],
        calls: [call, call],
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      },
    ];
    const recorder = recordCassette('unused', new ScriptedClient(scriptedTurns(script)));
    const config = new Config(options);
    const agent = new Agent(config, { client: recorder, tools: new ToolRegistry(config).register(...chaosTools()) });
    for await (const _ of agent.run('go')) {
      // drain
    }
    const types = agent.session.journal
      .filter((e) => e.type === 'tool_started' || e.type === 'tool_result')
      .map((e) => e.type);
    expect(types).toEqual(['tool_started', 'tool_started', 'tool_result', 'tool_result']);
    const report = await replayCassette(recorder.cassette(agent.session), {
      makeAgent: (client) => new Agent(config, { client, tools: new ToolRegistry(config).register(...chaosTools()) }),
    });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it(
    'an unchanged run passes its own recording, and its journal as a cassette',
    async () => {
      const cwd = tempWorkspace();
      const makeAgent = (options: ConfigOptions) => (client: ScriptedClient | Parameters<typeof recordCassette>[1]) => {
        const config = new Config(options);
        return new Agent(config, { client, tools: new ToolRegistry(config).register(...chaosTools()) });
      };
      for (const settings of propertyRuns({ default: 100, deep: 1000 })) {
        await fc.assert(
          fc.asyncProperty(
            scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, maxTurns: 4, maxCallsPerTurn: 3 }),
            budgetArbitrary(),
            async (script, budget) => {
              const options: ConfigOptions = { cwd, budget, toolTimeoutMs: 25, systemPrompt: 'Be brief.' };
              const recorder = recordCassette('unused', new ScriptedClient(scriptedTurns(script)));
              const agent = makeAgent(options)(recorder);
              for await (const _ of agent.run('go')) {
                // drain
              }
              const context = `${formatScript(script)}\nbudget ${JSON.stringify(budget)}`;
              const recorded = await replayCassette(recorder.cassette(agent.session), {
                makeAgent: makeAgent(options),
              });
              expect(recorded.ok, `${context}\n${formatCassetteReport(recorded)}`).toBe(true);
              const journal = await replayCassette(agent.session, { makeAgent: makeAgent(options) });
              expect(journal.ok, `${context}\n${formatCassetteReport(journal)}`).toBe(true);
            },
          ),
          settings,
        );
      }
    },
    byDepth({ default: 60_000, deep: 900_000 }),
  );
});
