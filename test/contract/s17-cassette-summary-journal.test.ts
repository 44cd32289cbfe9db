import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, defineTool, type ModelClient, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** The user's code: a long-page tool and a small context that the summarise strategy compacts. */
function agentMaker() {
  const cwd = tempWorkspace();
  return (client: ModelClient): Agent => {
    const config = new Config({ cwd, context: { maxTokens: 300, strategy: 'summarise' } });
    const tools = new ToolRegistry(config).register(
      defineTool({
        name: 'page',
        description: 'Read a page.',
        kind: 'read',
        schema: z.object({ n: z.number() }),
        execute: ({ params }) => `page ${params.n} `.repeat(80),
      }),
    );
    return new Agent(config, { client, tools, session: new Session(config) });
  };
}

describe('SPEC §12 + §17: a journal of a run whose context was summarised replays unchanged', () => {
  it('serves the journaled summary to the summary request, so the run goes on as recorded', async () => {
    const make = agentMaker();
    const agent = make(
      new ScriptedClient([
        toolTurn('c1', 'page', { n: 1 }, usage(60, 10)),
        toolTurn('c2', 'page', { n: 2 }, usage(250, 10)),
        textTurn('pages 1 and 2 were read', usage(100, 10)), // the summary
        toolTurn('c3', 'page', { n: 3 }, usage(120, 10)),
        textTurn('done', usage(100, 10)),
      ]),
    );
    expect((await collect(agent.run('read the pages'))).at(-1)).toMatchObject({ data: { response: 'done' } });
    const compaction = agent.session.journal.find((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ strategy: 'summarise' });
    const report = await replayCassette(agent.session, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('still reports a changed summary request: the kept turns are no longer the same', async () => {
    const make = agentMaker();
    const agent = make(
      new ScriptedClient([
        toolTurn('c1', 'page', { n: 1 }, usage(60, 10)),
        toolTurn('c2', 'page', { n: 2 }, usage(250, 10)),
        textTurn('pages 1 and 2 were read', usage(100, 10)),
        textTurn('done', usage(100, 10)),
      ]),
    );
    await collect(agent.run('read the pages'));
    const keepingTwo = (client: ModelClient): Agent => {
      const made = make(client);
      const config = new Config({
        cwd: made.config.cwd,
        context: { maxTokens: 300, strategy: 'summarise', keepTurns: 2 },
      });
      return new Agent(config, { client, tools: made.tools, session: new Session(config) });
    };
    const report = await replayCassette(agent.session, { makeAgent: keepingTwo });
    expect(report.ok).toBe(false);
  });
});
