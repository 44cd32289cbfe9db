import { describe, expect, it } from 'vitest';
import { Agent, Config, type ModelClient, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { openStore } from '../../src/stores/index.js';
import { agentTool } from '../../src/subagents.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** The user's code: a parent whose `researcher` tool runs a child agent (counted in `childRequests`). */
async function agentMaker(stored: boolean) {
  const cwd = tempWorkspace();
  const store = stored ? await openStore('memory:') : undefined;
  const counts = { childRequests: 0 };
  const make = (client: ModelClient): Agent => {
    const config = new Config({ cwd });
    const child = new ScriptedClient([textTurn('the child found it', usage(3, 3))]);
    const counted: ModelClient = {
      chatCompletion: (messages, tools, options) => {
        counts.childRequests++;
        return child.chatCompletion(messages, tools, options);
      },
    };
    const tools = new ToolRegistry(config).register(
      agentTool({ name: 'researcher', description: 'Research a task.', config: new Config({ cwd }), client: counted }),
    );
    return new Agent(config, { client, tools, session: new Session(config, store === undefined ? {} : { store }) });
  };
  return { make, counts };
}

describe('SPEC §13 + §17: a session with a sub-agent replays unchanged, the child answered from the recording', () => {
  for (const stored of [false, true]) {
    it(`counts the child's recorded usage again and runs no child (${stored ? 'a stored session' : 'no store'})`, async () => {
      const { make, counts } = await agentMaker(stored);
      const agent = make(new ScriptedClient([toolTurn('c1', 'researcher', { task: 'look' }), textTurn('done')]));
      const end = (await collect(agent.run('go'))).at(-1);
      expect(end).toMatchObject({ data: { usage: { totalTokens: 7 + 6 + 7 } } });
      expect(agent.session.journal.find((entry) => entry.type === 'tool_result')).toMatchObject({
        usage: { totalTokens: 6 },
      });
      const before = counts.childRequests;
      const report = await replayCassette(agent.session, { makeAgent: make });
      expect(report.ok, formatCassetteReport(report)).toBe(true);
      expect(counts.childRequests).toBe(before);
    });
  }
});
