// SPEC §17: "a truncated recording is a divergence, never a hang". Replaying a run that was
// recorded as suspended, the replay leaves an approval request that run did not decide
// undecided and suspends the run once only such calls wait. A sub-agent's request (relayed to
// the parent) that the recording never had came while the parent ran the sub-agent's call, not
// waiting for approval: the parent could not be suspended, nobody decided the child's call, and
// the replay waited for ever.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type ModelClient,
  ScriptedClient,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { agentTool } from '../../src/subagents.js';
import { recordCassette, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';

/** Rejects when `promise` does not settle in `ms`: a replay that waits forever fails, never hangs. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const tool = (name: string, kind: ToolKind) =>
  defineTool({ name, description: `${name} tool`, kind, schema: z.object({}), execute: () => `${name} done` });

/** The parent asks for `pay`; its `helper` runs a child that looks (allowed, or `ask` when `childAsks`). */
const maker =
  (childAsks: boolean) =>
  (client: ModelClient): Agent => {
    const config = new Config({ permissions: { pay: 'ask' } });
    const childConfig = new Config(childAsks ? { permissions: { look: 'ask' } } : {});
    const helper = agentTool({
      name: 'helper',
      description: 'Helps.',
      config: childConfig,
      client: new ScriptedClient([toolTurn('k1', 'look', {}), textTurn('the child looked')]),
      registry: new ToolRegistry(childConfig).register(tool('look', ToolKind.READ)),
    });
    return new Agent(config, {
      client,
      tools: new ToolRegistry(config).register(tool('pay', ToolKind.WRITE), helper),
    });
  };

describe('SPEC §17: a suspended run replayed with a sub-agent asking what the recording never asked', () => {
  it('is a divergence, never a hang', async () => {
    const recorder = recordCassette(
      'unused.cassette.jsonl',
      new ScriptedClient([toolTurn('c1', 'helper', { task: 'look' }), toolTurn('c2', 'pay', {}), textTurn('paid')]),
    );
    const agent = maker(false)(recorder);
    // Run 1 helps, then asks to pay and is suspended; run 2 resumes with the payment approved.
    for await (const event of agent.run('help, then pay')) {
      if (event.type === 'tool_approval_request') queueMicrotask(() => agent.suspend());
    }
    expect(agent.session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'suspended' });
    expect((await collect(agent.resume({ approvals: { c2: 'approve' } }))).at(-1)).toMatchObject({
      type: 'agent_end',
    });
    const cassette = recorder.cassette(agent.session);
    expect(await within(replayCassette(cassette, { makeAgent: maker(false), tools: 'live' }))).toEqual({ ok: true });
    // Now the child asks before it looks: the recording never decided its call.
    const report = await within(replayCassette(cassette, { makeAgent: maker(true), tools: 'live' }));
    expect(report.ok).toBe(false);
    expect(report.divergence).toMatchObject({
      kind: 'tool call',
      message: 'call k1 asked for approval; the recording never did',
    });
  });
});
