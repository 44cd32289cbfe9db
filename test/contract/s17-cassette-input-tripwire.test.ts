import { describe, expect, it } from 'vitest';
import type { Guardrail } from '../../src/guardrails.js';
import { Agent, Config, type ModelClient, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { formatCassetteReport, recordCassette, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** Rejects when `promise` does not settle in `ms`: a replay that waits forever fails, never hangs. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An input guardrail that trips after `delayMs`: slower than the model (its answer is held, then dropped) or not. */
const tripsAfter = (delayMs: number): Guardrail => ({
  name: 'no-secrets',
  check: async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { tripwire: 'the task quotes a secret' };
  },
});

function agentMaker(delayMs: number) {
  const cwd = tempWorkspace();
  return (client: ModelClient): Agent => {
    const config = new Config({ cwd, guardrails: { input: [tripsAfter(delayMs)] } });
    return new Agent(config, { client, tools: new ToolRegistry(config), session: new Session(config) });
  };
}

describe('SPEC §16 + §17: a run with an input guardrail replays unchanged', () => {
  for (const source of ['journal', 'recording'] as const) {
    it(`from a ${source}, the model's held answer dropped as it was`, async () => {
      const make = agentMaker(30);
      const recorder = recordCassette('unused.cassette.jsonl', new ScriptedClient([textTurn('an answer')]));
      const agent = make(recorder);
      const end = (await collect(agent.run('my key is sk-test'))).at(-1);
      expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
      const cassette = source === 'journal' ? agent.session : recorder.cassette(agent.session);
      const report = await within(replayCassette(cassette, { makeAgent: make }));
      expect(report.ok, formatCassetteReport(report)).toBe(true);
    });
  }

  it("from a journal, an input judge's own usage is not taken for the model's", async () => {
    const cwd = tempWorkspace();
    const judge: Guardrail = {
      name: 'judge',
      check: (_value, { addUsage }) => {
        addUsage(usage(11, 1));
        return 'pass';
      },
    };
    const make = (client: ModelClient) => {
      const config = new Config({ cwd, guardrails: { input: [judge] } });
      return new Agent(config, { client, tools: new ToolRegistry(config), session: new Session(config) });
    };
    const agent = make(new ScriptedClient([textTurn('an answer', usage(50, 5))]));
    expect((await collect(agent.run('hello'))).at(-1)).toMatchObject({ data: { usage: { totalTokens: 67 } } });
    const report = await within(replayCassette(agent.session, { makeAgent: make }));
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('still reports an input guardrail that no longer trips', async () => {
    const agent = agentMaker(30)(new ScriptedClient([textTurn('an answer')]));
    await collect(agent.run('my key is sk-test'));
    const cwd = tempWorkspace();
    const lenient = (client: ModelClient) => {
      const config = new Config({ cwd });
      return new Agent(config, { client, tools: new ToolRegistry(config), session: new Session(config) });
    };
    const report = await within(replayCassette(agent.session, { makeAgent: lenient }));
    expect(report.ok).toBe(false);
  });
});
