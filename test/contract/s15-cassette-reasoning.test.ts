import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type ModelClient,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import { formatCassetteReport, recordCassette, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function agentMaker() {
  const cwd = tempWorkspace();
  return (client: ModelClient): Agent => {
    const config = new Config({ cwd });
    const tools = new ToolRegistry(config).register(
      defineTool({ name: 'look', description: 'Look.', kind: 'read', schema: z.object({}), execute: () => 'seen' }),
    );
    return new Agent(config, { client, tools, session: new Session(config) });
  };
}

const thinking = { type: 'reasoning', provider: 'anthropic', text: 'I should look.', signature: 'sig-1' } as const;

/** A reasoning model of `provider`: it thinks, calls `look`, then answers. */
const reasoningModel = (provider: string | undefined) => {
  const client = new ScriptedClient([
    [
      StreamEvent.reasoningComplete(thinking),
      StreamEvent.toolCallComplete({ callId: 'c1', name: 'look', arguments: {} }),
      StreamEvent.messageComplete(usage(5, 2)),
    ],
    textTurn('done'),
  ]);
  return provider === undefined ? client : Object.assign(client, { provider });
};

describe('SPEC §15 + §17: a session with reasoning parts replays unchanged, each part sent back to its provider', () => {
  for (const provider of ['anthropic', 'openai', undefined]) {
    it(`from a recording and from its journal (the recorded client's provider: ${provider ?? 'none'})`, async () => {
      const make = agentMaker();
      const recorder = recordCassette('unused.cassette.jsonl', reasoningModel(provider));
      const agent = make(recorder);
      expect((await collect(agent.run('go'))).at(-1)?.type).toBe('agent_end');
      const answered = recorder.cassette(agent.session).turns[1]?.request.messages[1];
      const sentBack = answered?.role === 'assistant' ? answered.reasoning : undefined;
      expect(sentBack).toEqual(provider === 'anthropic' ? [thinking] : undefined);
      for (const cassette of [recorder.cassette(agent.session), agent.session]) {
        const report = await replayCassette(cassette, { makeAgent: make });
        expect(report.ok, formatCassetteReport(report)).toBe(true);
      }
    });
  }
});
