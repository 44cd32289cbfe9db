import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type ModelClient,
  ScriptedClient,
  Session,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { cassetteFromJournal, parseCassette, replayCassette, serializeCassette } from '../../src/testing/index.js';
import type { ContentPart } from '../../src/tools/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const SHOT = Buffer.alloc(5000, 9).toString('base64');
const task: ContentPart[] = [
  { type: 'text', text: 'what is this?' },
  { type: 'image', mediaType: 'image/png', data: SHOT },
];

function makeMaker(shot: string) {
  const cwd = tempWorkspace();
  return (client: ModelClient) => {
    const config = new Config({ cwd });
    const registry = new ToolRegistry(config).register(
      defineTool({
        name: 'look',
        description: 'Looks.',
        kind: ToolKind.READ,
        schema: z.object({}),
        execute: () => ToolResult.content([{ type: 'image', mediaType: 'image/png', data: shot }]),
      }),
    );
    return new Agent(config, { session: new Session(config, { client, registry }) });
  };
}

describe('attack: a cassette of a run with images', () => {
  it('records, serialises and replays unchanged (recorded and live tools)', async () => {
    const maker = makeMaker(SHOT);
    const agent = maker(new ScriptedClient([toolTurn('c1', 'look', {}), textTurn('a cat')]));
    const events = await collect(agent.run(task));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'a cat' } });
    const cassette = parseCassette(serializeCassette(cassetteFromJournal(agent.session.journal)));
    expect(await replayCassette(cassette, { makeAgent: maker })).toEqual({ ok: true });
    expect(await replayCassette(cassette, { makeAgent: maker, tools: 'live' })).toEqual({ ok: true });
  });

  it('a tool now returning a different image is a divergence, not a pass', async () => {
    const agent = makeMaker(SHOT)(new ScriptedClient([toolTurn('c1', 'look', {}), textTurn('a cat')]));
    await collect(agent.run(task));
    const cassette = cassetteFromJournal(agent.session.journal);
    const other = Buffer.alloc(5000, 8).toString('base64');
    const report = await replayCassette(cassette, { makeAgent: makeMaker(other), tools: 'live' });
    expect(report.ok).toBe(false);
  });
});
