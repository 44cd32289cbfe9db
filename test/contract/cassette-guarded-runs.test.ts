import { describe, expect, it } from 'vitest';
import type { Guardrail } from '../../src/guardrails.js';
import { Agent, Config, type ConfigOptions, ToolRegistry } from '../../src/index.js';
import {
  formatCassetteReport,
  type MakeAgent,
  recordCassette,
  replayCassette,
  ScriptedClient,
} from '../../src/testing/index.js';
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
  (options: ConfigOptions): MakeAgent =>
  (client) => {
    const config = new Config(options);
    return new Agent(config, { client, tools: new ToolRegistry(config).register(lookupTool()) });
  };

/** Records the lookup script on `make`, answering approval requests with `decide`. */
async function record(make: MakeAgent, decide: (agent: Agent, callId: string) => void = () => {}) {
  const recorder = recordCassette('unused.cassette.jsonl', new ScriptedClient(lookupScript()));
  const agent = await make(recorder);
  for await (const event of agent.run('Define cat, dog and eel.')) {
    if (event.type === 'tool_approval_request') decide(agent, (event.data as { callId: string }).callId);
  }
  return { cassette: recorder.cassette(agent.session), session: agent.session };
}

describe('SPEC §17: an unchanged run passes its cassette, policies and guardrails included', () => {
  it('with an approval that edited the arguments and one that denied', async () => {
    const make = maker({ permissions: { lookup: 'ask' } });
    const { cassette, session } = await record(make, (agent, callId) => {
      if (callId === 'c1') agent.approve(callId, { arguments: { word: 'cow' } });
      else if (callId === 'c2') agent.deny(callId, 'no dogs');
      else agent.approve(callId);
    });
    expect(session.journal.find((entry) => entry.type === 'approval_decision')).toMatchObject({
      callId: 'c1',
      arguments: { word: 'cow' },
    });
    for (const tools of ['recorded', 'live'] as const) {
      const report = await within(replayCassette(cassette, { makeAgent: make, tools }));
      expect(report, `${tools}: ${formatCassetteReport(report)}`).toEqual({ ok: true });
    }
  });

  it('with a tool-result guardrail that replaces (not idempotent) or trips on the tool output', async () => {
    const tag: Guardrail = { name: 'tag', check: (value) => ({ replace: `[checked] ${value}` }) };
    const noDogs: Guardrail = {
      name: 'no-dogs',
      check: (value) => (value === 'definition of dog' ? { tripwire: 'dogs' } : 'pass'),
    };
    for (const guardrail of [tag, noDogs]) {
      const make = maker({ guardrails: { toolResult: [guardrail] } });
      const { cassette } = await record(make);
      for (const tools of ['recorded', 'live'] as const) {
        const report = await within(replayCassette(cassette, { makeAgent: make, tools }));
        expect(report, `${guardrail.name}, ${tools}: ${formatCassetteReport(report)}`).toEqual({ ok: true });
      }
    }
  });
});

describe('SPEC §17: a divergence is reported at its step, with its kind and a diff', () => {
  it('a changed output replacement is a stop reason at the recorded end', async () => {
    const sign = (by: string): Guardrail => ({ name: 'sign', check: (value) => ({ replace: `${value} -- ${by}` }) });
    const { cassette } = await record(maker({ guardrails: { output: [sign('ann')] } }));
    const end = cassette.journal.length - 1;
    expect(cassette.journal[end]).toMatchObject({ type: 'agent_end', response: 'A cat, a dog and an eel. -- ann' });
    const report = await within(
      replayCassette(cassette, { makeAgent: maker({ guardrails: { output: [sign('bob')] } }) }),
    );
    expect(report.divergence).toMatchObject({ kind: 'stop reason', step: { entryIndex: end, turn: 3 } });
    expect(report.divergence?.diff).toContain('-- bob');
  });

  it("a policy function's changed verdict is a tool call at its decision", async () => {
    const denying = (reason: string) => maker({ permissions: { lookup: () => ({ deny: reason }) } });
    const { cassette } = await record(denying('not today'));
    const decided = cassette.journal.findIndex((entry) => entry.type === 'approval_decision');
    expect(decided).toBeGreaterThan(0);
    const report = await within(replayCassette(cassette, { makeAgent: denying('never') }));
    expect(report.divergence).toMatchObject({ kind: 'tool call', step: { entryIndex: decided, turn: 1 } });
    expect(report.divergence?.diff).toContain('never');
  });
});
