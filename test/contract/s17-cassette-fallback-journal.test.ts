import { describe, expect, it } from 'vitest';
import { fallbackClient } from '../../src/fallback.js';
import {
  Agent,
  Config,
  type ModelClient,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A scripted model with a name, as a fallback chain names its models. */
const named = (model: string, turns: ConstructorParameters<typeof ScriptedClient>[0]) =>
  Object.assign(new ScriptedClient(turns), { model });

const rateLimited = () => [StreamEvent.error('rate limited', '429')];

function agentMaker() {
  const cwd = tempWorkspace();
  return (client: ModelClient): Agent => {
    const config = new Config({ cwd });
    return new Agent(config, { client, tools: new ToolRegistry(config), session: new Session(config) });
  };
}

describe('SPEC §15 + §17: a session whose fallback chain switched models replays unchanged from its journal', () => {
  it('serves each journaled switch and the answering model again, so the journal matches', async () => {
    const make = agentMaker();
    const primary = named('primary', [rateLimited(), textTurn('from primary')]);
    const secondary = named('secondary', [textTurn('from secondary')]);
    const agent = make(fallbackClient([primary, secondary]));
    expect((await collect(agent.run('one'))).at(-1)).toMatchObject({ data: { response: 'from secondary' } });
    expect((await collect(agent.run('two'))).at(-1)).toMatchObject({ data: { response: 'from primary' } });
    const journal = agent.session.journal;
    expect(journal.filter((entry) => entry.type === 'model_switch')).toHaveLength(1);
    expect(journal.filter((entry) => entry.type === 'usage').map((entry) => entry.model)).toEqual([
      'secondary',
      'primary',
    ]);
    const report = await replayCassette(agent.session, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('replays a turn every model of the chain failed: the switches, then the model_error', async () => {
    const make = agentMaker();
    const chain = fallbackClient([named('primary', [rateLimited()]), named('secondary', [rateLimited()])]);
    const agent = make(chain);
    const end = (await collect(agent.run('one'))).at(-1);
    expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    const report = await replayCassette(agent.session, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('still reports a switch the recording did not have', async () => {
    const make = agentMaker();
    const agent = make(named('primary', [toolTurn('c1', 'missing', {}), textTurn('done')]));
    await collect(agent.run('one'));
    const switching = (client: ModelClient) =>
      make(fallbackClient([named('flaky', [rateLimited(), rateLimited()]), client], { cooldownMs: 0 }));
    const report = await replayCassette(agent.session, { makeAgent: switching });
    expect(report.ok).toBe(false);
    expect(report.divergence?.message).toContain('model_switch');
  });
});
