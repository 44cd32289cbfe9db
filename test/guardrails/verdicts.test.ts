import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { Guardrail } from '../../src/guardrails.js';
import { Agent, Config, HarnessError, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { collect, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { fetchTool, fixed, guardedAgent, verdictsOf } from './support.js';

const SECRET = 'sk-live-1234567890abcdef';

describe('Config.guardrails: replacement (redaction)', () => {
  it('a tool result replaced is what the journal and the next request both hold; the original is nowhere', async () => {
    const redact = {
      name: 'secrets',
      check: (value: string) => (value.includes(SECRET) ? { replace: value.replaceAll(SECRET, '[redacted]') } : 'pass'),
    } as const;
    const { agent, session, client } = guardedAgent(
      [toolTurn('c1', 'fetch', {}), textTurn('ok')],
      { toolResult: [redact] },
      { output: `key=${SECRET}` },
    );
    const events = await collect(agent.run('fetch it'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(client.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', callId: 'c1', content: 'key=[redacted]' });
    expect(JSON.stringify(session.journal)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(verdictsOf(session)).toEqual([
      { guardrail: 'secrets', stage: 'toolResult', outcome: 'replace', callId: 'c1' },
    ]);
    const types = session.journal.map((entry) => entry.type);
    expect(types.indexOf('guardrail')).toBeLessThan(types.indexOf('tool_result'));
  });

  it('guardrails of a stage run in order, each on the value the one before left', async () => {
    const seen: string[] = [];
    const { agent, session } = guardedAgent([textTurn('a long answer')], {
      output: [fixed('shorten', { replace: 'short' }), fixed('look', 'pass', seen)],
    });
    const events = await collect(agent.run('hi'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'short' } });
    expect(seen).toEqual(['short']);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_end', response: 'short' });
  });

  it('an input guardrail may not replace: that answer is an error verdict', async () => {
    const { agent } = guardedAgent([textTurn('hi')], { input: [fixed('rewrite', { replace: 'other' })] });
    const events = await collect(agent.run('hello'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
    expect(JSON.stringify(events.at(-1))).toContain('may not replace');
  });
});

describe('Config.guardrails: a guardrail that throws', () => {
  it('is the verdict Error: …, and the run ends with reason guardrail naming it and the error', async () => {
    const { agent, session } = guardedAgent([toolTurn('c1', 'fetch', {}), textTurn('never')], {
      toolResult: [
        {
          name: 'broken',
          check: () => {
            throw new Error('detector offline');
          },
        },
      ],
    });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toEqual({
      type: 'agent_error',
      data: {
        reason: 'guardrail',
        message: "guardrail 'broken' (toolResult of call c1) failed: Error: detector offline",
      },
    });
    expect(verdictsOf(session)).toEqual([
      { guardrail: 'broken', stage: 'toolResult', outcome: 'error', reason: 'Error: detector offline', callId: 'c1' },
    ]);
  });
});

describe('Config.guardrails: a slow guardrail', () => {
  const ignoresItsSignal = { name: 'slow', check: () => new Promise<'pass'>(() => {}) };

  it('ends with agent.abort(), even when it ignores its signal', async () => {
    let signalled: AbortSignal | undefined;
    const { agent } = guardedAgent([toolTurn('c1', 'fetch', {}), textTurn('never')], {
      toolResult: [
        {
          name: 'slow',
          check: (_value, { signal }) => {
            signalled = signal;
            return new Promise<'pass'>(() => {});
          },
        },
      ],
    });
    agent.events.subscribe((event) => {
      if (event.type === 'tool_call_start') setTimeout(() => agent.abort('user pressed stop'), 5);
    });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toEqual({ type: 'agent_error', data: { reason: 'aborted', message: 'user pressed stop' } });
    expect(signalled?.aborted).toBe(true);
  });

  it('ends with the wall-clock budget on the final answer (SimulatedClock)', async () => {
    const config = new Config({ guardrails: { output: [ignoresItsSignal] }, budget: { maxWallClockMs: 1_000 } });
    const clock = new SimulatedClock();
    const agent = new Agent(config, {
      session: new Session(config),
      client: new ScriptedClient([textTurn('hi')]),
      clock,
    });
    agent.events.subscribe((event) => {
      if (event.type === 'text_complete') setTimeout(() => clock.increment(1_000), 5);
    });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
  });
});

describe('Config.guardrails: an LLM judge', () => {
  it('counts the usage it reports into the session and the budget', async () => {
    const judge: Guardrail = {
      name: 'judge',
      check: (_value, { addUsage }) => {
        addUsage(usage(100, 1));
        return 'pass';
      },
    };
    const { agent, session } = guardedAgent([textTurn('hi', usage(5, 2))], { output: [judge] });
    await collect(agent.run('go'));
    expect(session.totalUsage.totalTokens).toBe(7 + 101);
    const stopped = guardedAgent(
      [toolTurn('c1', 'fetch', {}, usage(5, 2)), textTurn('never')],
      { toolResult: [judge] },
      {
        budget: { maxTotalTokens: 50 },
      },
    );
    const events = await collect(stopped.agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'token_budget' } });
  });
});

describe('Config.guardrails: replay and resume never run a guardrail again', () => {
  it('replay rebuilds the session from the recorded verdicts and replacements, calling no guardrail', async () => {
    const seen: string[] = [];
    const guardrails = {
      toolResult: [fixed('secrets', { replace: '[redacted]' }, seen)],
      output: [fixed('out', 'pass', seen)],
    };
    const { agent, session, config } = guardedAgent([toolTurn('c1', 'fetch', {}), textTurn('ok')], guardrails);
    await collect(agent.run('go'));
    expect(seen).toHaveLength(2);
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(replayed.messages).toEqual(session.messages);
    expect(seen).toHaveLength(2);
  });

  it('a resumed run does not check the input again', async () => {
    const seen: string[] = [];
    const config = new Config({
      guardrails: { input: [fixed('in', 'pass', seen)] },
      permissions: { fetch: 'ask' },
    });
    const session = new Session(config);
    const agent = new Agent(config, {
      session,
      client: new ScriptedClient([toolTurn('c1', 'fetch', {}), textTurn('done')]),
      tools: new ToolRegistry(config).register(fetchTool('page')),
    });
    agent.events.subscribe((event) => {
      if (event.type === 'tool_approval_request') setTimeout(() => agent.suspend(), 5);
    });
    const first = await collect(agent.run('go'));
    expect(first.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    const resumed = await collect(agent.resume({ approvals: { c1: 'approve' } }));
    expect(resumed.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(seen).toEqual(['go']);
    expect(verdictsOf(session)).toHaveLength(1);
  });
});

describe('Config({ guardrails }) validation', () => {
  it.each([
    [{ toolResult: [{ name: '', check: () => 'pass' }] }, "guardrails.toolResult[0] needs a non-empty string 'name'"],
    [{ output: [{ name: 'x' }] }, "guardrails.output[0] ('x') needs a 'check' function"],
    [{ input: 'nope' }, 'guardrails.input must be an array'],
    [{ tool: [] }, "unknown stage 'tool'"],
    [{ output: [fixed('a', 'pass'), fixed('a', 'pass')] }, "two guardrails of stage 'output' are named 'a'"],
  ])('refuses %j', (guardrails, message) => {
    const make = () => new Config({ guardrails: guardrails as never });
    expect(make).toThrow(HarnessError);
    expect(make).toThrow(message);
  });
});
