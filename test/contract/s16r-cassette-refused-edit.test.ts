// SPEC §17: "a truncated recording is a divergence, never a hang", and the first step where the
// new run differs is reported. A recorded approval that edited a call's arguments is applied
// again with `agent.approve(callId, { arguments })`, which throws `invalid_argument` when the
// current tool's schema refuses the edit (the kind of change a replay is for). Thrown inside the
// replay's microtask it escaped as an uncaught error, and the call waited for a decision that
// never came: the replay hung.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, ToolRegistry } from '../../src/index.js';
import { type MakeAgent, recordCassette, replayCassette, ScriptedClient } from '../../src/testing/index.js';
import { lookupScript, lookupTool } from '../cassettes/support/recording.js';

/** Rejects when `promise` does not settle in `ms`: a replay that waits forever fails, never hangs. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const maker =
  (schema?: Parameters<typeof lookupTool>[1]): MakeAgent =>
  (client) => {
    const config = new Config({ permissions: { lookup: 'ask' } });
    const tool = schema === undefined ? lookupTool() : lookupTool('Looks a word up.', schema);
    return new Agent(config, { client, tools: new ToolRegistry(config).register(tool) });
  };

describe('SPEC §17: a recorded edit of the arguments that the current schema refuses', () => {
  it('is a tool call divergence at the decision, never a hang nor an uncaught error', async () => {
    const make = maker();
    const recorder = recordCassette('unused.cassette.jsonl', new ScriptedClient(lookupScript()));
    const agent = await make(recorder);
    for await (const event of agent.run('Define cat, dog and eel.')) {
      if (event.type !== 'tool_approval_request') continue;
      const { callId } = event.data as { callId: string };
      if (callId === 'c1') agent.approve(callId, { arguments: { word: 'cow' } });
      else agent.approve(callId);
    }
    const cassette = recorder.cassette(agent.session);
    const decided = cassette.journal.findIndex((entry) => entry.type === 'approval_decision');
    // Now the tool refuses the word the recording's edit gave.
    const strict = z.object({ word: z.string().refine((word) => word !== 'cow', 'no cows') });
    const report = await within(replayCassette(cassette, { makeAgent: maker(strict) }));
    expect(report.ok).toBe(false);
    expect(report.divergence).toMatchObject({ kind: 'tool call', step: { entryIndex: decided } });
    expect(report.divergence?.expected).toMatchObject({ callId: 'c1', approved: true });
    expect(report.divergence?.actual).toMatchObject({ callId: 'c1', approved: false });
    expect(report.divergence?.diff).toContain('no cows');
  });
});
