import { describe, expect, it } from 'vitest';
import { ModelError, type ModelErrorKind } from '../../../src/adapters/index.js';
import { FallbackError, type FallbackReason, fallbackClient } from '../../../src/fallback.js';
import { Budget, type ModelClient, ScriptedClient, Session, StreamEvent } from '../../../src/index.js';
import { checkLoopInvariants } from '../../../src/testing/index.js';
import { collect, makeAgent } from '../../support/fixtures.js';
import { tempWorkspace } from '../../support/workspace.js';

/** A client named `model` whose every request fails with a ModelError of `kind`, counting requests. */
function failing(model: string, kind: ModelErrorKind, message = `${model} says ${kind}`) {
  const client = {
    model,
    calls: 0,
    // biome-ignore lint/correctness/useYield: it fails before its first event
    async *chatCompletion(): AsyncGenerator<StreamEvent> {
      client.calls++;
      throw new ModelError(kind, message);
    },
  };
  return client;
}

function answering(model: string, text: string): ModelClient & { calls: number } {
  const scripted = new ScriptedClient(Array.from({ length: 5 }, () => [StreamEvent.textDelta(text), done()]));
  return {
    model,
    get calls() {
      return scripted.calls;
    },
    chatCompletion: (messages, tools, options) => scripted.chatCompletion(messages, tools, options),
  };
}

function done(): StreamEvent {
  return StreamEvent.messageComplete({ promptTokens: 10, completionTokens: 2, totalTokens: 12 }, 'stop');
}

async function events(client: ModelClient): Promise<StreamEvent[]> {
  const stream = await client.chatCompletion([{ role: 'user', content: 'hi' }]);
  const out: StreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const KINDS: [ModelErrorKind, FallbackReason][] = [
  ['rate_limited', 'rate_limit'],
  ['overloaded', 'overloaded'],
  ['server', 'server'],
  ['context_length', 'context_length'],
  ['timeout', 'timeout'],
];

describe('fallbackClient', () => {
  for (const [kind, reason] of KINDS) {
    it(`moves down a 3-model chain on ${reason} and names the model that answered`, async () => {
      const a = failing('model-a', kind);
      const b = failing('model-b', kind);
      const c = answering('model-c', 'from c');
      const seen = await events(fallbackClient([a, b, c]));
      expect(seen.filter((event) => event.type === 'model_switch').map((event) => event.modelSwitch)).toEqual([
        { from: 'model-a', to: 'model-b', reason, message: `model-a says ${kind}` },
        { from: 'model-b', to: 'model-c', reason, message: `model-b says ${kind}` },
      ]);
      expect(seen.at(-1)).toMatchObject({ type: 'message_complete', model: 'model-c' });
      expect([a.calls, b.calls, c.calls]).toEqual([1, 1, 1]);
    });
  }

  it('a failure the chain is not told to switch on ends the turn with that error, untouched', async () => {
    const a = failing('model-a', 'authentication');
    const b = answering('model-b', 'never');
    await expect(events(fallbackClient([a, b]))).rejects.toThrow('model-a says authentication');
    expect(b.calls).toBe(0);
  });

  it("'on' narrows the reasons: a timeout is not switched on when only rate limits are", async () => {
    const b = answering('model-b', 'never');
    await expect(events(fallbackClient([failing('model-a', 'timeout'), b], { on: ['rate_limit'] }))).rejects.toThrow(
      ModelError,
    );
    expect(b.calls).toBe(0);
  });

  it('every model failing is a model_error listing each model with its reason and error', async () => {
    const chain = fallbackClient([
      failing('model-a', 'rate_limited'),
      failing('model-b', 'server'),
      failing('model-c', 'overloaded'),
    ]);
    const error = await events(chain).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FallbackError);
    expect((error as FallbackError).reason).toBe('model_error');
    expect((error as FallbackError).message).toBe(
      'every model of the fallback chain failed: model-a (rate_limit: model-a says rate_limited); ' +
        'model-b (server: model-b says server); model-c (overloaded: model-c says overloaded)',
    );
  });

  it('an error event before any delta switches too (its code read as the reason)', async () => {
    const a = new ScriptedClient([[StreamEvent.error('Too Many Requests', '429')]]);
    const seen = await events(fallbackClient([Object.assign(a, { model: 'model-a' }), answering('model-b', 'ok')]));
    expect(seen[0]).toMatchObject({ type: 'model_switch', modelSwitch: { reason: 'rate_limit', to: 'model-b' } });
  });

  it('never switches once the answer started: a failure after the first delta fails the turn', async () => {
    const partial = {
      model: 'model-a',
      async *chatCompletion(): AsyncGenerator<StreamEvent> {
        yield StreamEvent.textDelta('half an ans');
        throw new ModelError('server', 'dropped mid-answer');
      },
    };
    const b = answering('model-b', 'never');
    await expect(events(fallbackClient([partial, b]))).rejects.toThrow('dropped mid-answer');
    expect(b.calls).toBe(0);
    const afterToolDelta = new ScriptedClient([
      [
        StreamEvent.toolCallDelta({ callId: 'c1', name: 'read_file', argumentsDelta: '{"pa' }),
        StreamEvent.error('overloaded', '529'),
      ],
    ]);
    const seen = await events(fallbackClient([afterToolDelta, b]));
    expect(seen.map((event) => event.type)).toEqual(['tool_call_delta', 'error']);
    expect(b.calls).toBe(0);
  });

  it('skips a model that failed until cooldownMs passed, then tries it first again', async () => {
    let now = 1_000;
    let fails = true;
    const a = {
      model: 'model-a',
      calls: 0,
      async *chatCompletion(): AsyncGenerator<StreamEvent> {
        a.calls++;
        if (fails) throw new ModelError('rate_limited', 'slow down');
        yield StreamEvent.textDelta('a is back');
        yield done();
      },
    };
    const b = answering('model-b', 'b');
    const chain = fallbackClient([a, b], { cooldownMs: 500, now: () => now });
    await events(chain);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    now += 499;
    const second = await events(chain);
    expect([a.calls, b.calls]).toEqual([1, 2]); // a cools down: not asked, no switch to journal
    expect(second.some((event) => event.type === 'model_switch')).toBe(false);
    fails = false;
    now += 1;
    const third = await events(chain);
    expect(a.calls).toBe(2);
    expect(third.at(-1)).toMatchObject({ type: 'message_complete', model: 'model-a' });
  });

  it('refuses an empty chain, an unknown reason and a negative cooldown, naming them', () => {
    expect(() => fallbackClient([])).toThrow('non-empty array');
    expect(() => fallbackClient([answering('a', 'x')], { on: ['quota' as FallbackReason] })).toThrow(
      "unknown reason 'quota'",
    );
    expect(() => fallbackClient([answering('a', 'x')], { cooldownMs: -1 })).toThrow(
      'cooldownMs must be a non-negative number, got -1',
    );
  });
});

describe('an agent on a fallback chain', () => {
  it('journals each switch and the model that answered, and a reloaded session keeps both', async () => {
    const chain = fallbackClient([failing('model-a', 'overloaded'), answering('model-b', 'hello')]);
    const { agent, session, config } = makeAgent(chain, [], { cwd: tempWorkspace() });
    const seen = await collect(agent.run('go'));
    expect(seen.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'hello' } });
    expect(checkLoopInvariants(session.journal, { config, events: seen })).toEqual([]);
    const switches = session.journal.filter((entry) => entry.type === 'model_switch');
    expect(switches).toEqual([
      {
        type: 'model_switch',
        from: 'model-a',
        to: 'model-b',
        reason: 'overloaded',
        message: 'model-a says overloaded',
      },
    ]);
    expect(session.journal.filter((entry) => entry.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, model: 'model-b' },
    ]);
    const saved = session.toJSON();
    const reloaded = Session.fromJSON(JSON.parse(JSON.stringify(saved)));
    // Byte-identical journals; `savedAt` is each call's own clock.
    expect(JSON.stringify(reloaded.toJSON().journal)).toBe(JSON.stringify(saved.journal));
    expect(reloaded.journal.filter((entry) => entry.type === 'model_switch')).toEqual(switches);
  });

  it('a chain whose every model fails ends the run with model_error listing them', async () => {
    const chain = fallbackClient([failing('model-a', 'timeout'), failing('model-b', 'rate_limited')]);
    const { agent, session } = makeAgent(chain, [], { cwd: tempWorkspace() });
    const seen = await collect(agent.run('go'));
    expect(seen.at(-1)).toMatchObject({
      type: 'agent_error',
      data: {
        reason: 'model_error',
        message:
          'every model of the fallback chain failed: model-a (timeout: model-a says timeout); ' +
          'model-b (rate_limit: model-b says rate_limited)',
      },
    });
    expect(session.journal.filter((entry) => entry.type === 'model_switch')).toHaveLength(1);
  });
});

describe('prices on a fallback chain', () => {
  it('prices each turn at the rates of the model that answered, live and after reloading the journal', async () => {
    const chain = fallbackClient([failing('model-a', 'server'), answering('model-b', 'hello')]);
    const budget = {
      inputRatePer1k: 1,
      outputRatePer1k: 1,
      modelRates: { 'model-b': { inputRatePer1k: 10, outputRatePer1k: 20 } },
    };
    const { agent, session, config } = makeAgent(chain, [], { cwd: tempWorkspace(), budget });
    const seen = await collect(agent.run('go'));
    // 10 prompt tokens at 10 and 2 completion tokens at 20 per 1,000, not the primary's 1 and 1.
    expect(config.budget.usageCost(session.totalUsage)).toBeCloseTo(0.14, 12);
    expect(seen.at(-1)).toMatchObject({ type: 'agent_end' });
    const reloaded = Session.fromJSON(JSON.parse(JSON.stringify(session.toJSON())));
    expect(config.budget.usageCost(reloaded.totalUsage)).toBeCloseTo(0.14, 12);
    // A model without rates of its own is priced at the budget's.
    const plain = makeAgent(fallbackClient([failing('model-a', 'server'), answering('model-c', 'hi')]), [], {
      cwd: tempWorkspace(),
      budget,
    });
    await collect(plain.agent.run('go'));
    expect(plain.config.budget.usageCost(plain.session.totalUsage)).toBeCloseTo(0.012, 12);
  });

  it("a cost budget stops the run at the answering model's price", async () => {
    const budget = { maxCost: 0.05, modelRates: { 'model-b': { inputRatePer1k: 10, outputRatePer1k: 20 } } };
    const script = fallbackClient([
      failing('model-a', 'server'),
      {
        model: 'model-b',
        chatCompletion: () => [
          StreamEvent.toolCallComplete({ callId: 'c1', name: 'missing_tool', arguments: {} }),
          StreamEvent.messageComplete({ promptTokens: 10, completionTokens: 2, totalTokens: 12 }, 'tool_calls'),
        ],
      },
    ]);
    const { agent } = makeAgent(script, [], { cwd: tempWorkspace(), budget });
    const seen = await collect(agent.run('go'));
    expect(seen.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'cost_budget' } });
  });

  it('refuses modelRates that are not an object of rates, and a bad rate naming the model', () => {
    expect(() => new Budget({ modelRates: [] as never })).toThrow('budget.modelRates must be an object');
    expect(() => new Budget({ modelRates: { m: { inputRatePer1k: -1 } } })).toThrow(
      "budget.modelRates['m'].inputRatePer1k must be a non-negative number, got -1",
    );
  });
});
