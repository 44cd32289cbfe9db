import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { estimateContextTokens, SUMMARY_REQUEST } from '../../src/context/index.js';
import {
  type AgentEvent,
  Config,
  defineTool,
  type Message,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
} from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A read tool whose output is `size` characters: a page of a long document. */
function pageTool(size: number) {
  return defineTool({
    name: 'read_page',
    description: 'Reads one page of a long document.',
    kind: ToolKind.READ,
    schema: z.object({ page: z.number().int() }),
    execute: ({ params }) => `page ${params.page}: ${'lorem ipsum '.repeat(size / 12)}`.slice(0, size),
  });
}

/** A model that reads pages 1..n, one per turn, then answers; it reports no usage (the estimate is used). */
function reader(pages: number, report?: (messages: readonly Message[]) => number) {
  return (n: number, messages: readonly Message[]) => {
    const prompt = report?.(messages) ?? 0;
    const end = StreamEvent.messageComplete(usage(prompt, prompt > 0 ? 3 : 0));
    if (n > pages) return [StreamEvent.textDelta('read them all'), end];
    return [StreamEvent.toolCallComplete({ callId: `p${n}`, name: 'read_page', arguments: { page: n } }), end];
  };
}

/** A client playing `turn(n, messages)`, recording each request's messages and tools. */
class Recording {
  readonly requests: { messages: Message[]; tools: unknown }[] = [];
  constructor(private readonly turn: (n: number, messages: readonly Message[]) => StreamEvent[]) {}
  async *chatCompletion(messages: readonly Message[], tools?: unknown): AsyncGenerator<StreamEvent> {
    this.requests.push({ messages: messages.slice(), tools });
    yield* this.turn(this.requests.length, messages);
  }
}

/** Problems with the one-result-per-call rule in what a request sent. */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role !== 'assistant' || message.toolCalls === undefined) continue;
    const answers = [];
    for (let j = i + 1; j < messages.length && messages[j]?.role === 'tool'; j++) answers.push(messages[j]);
    const ids = answers.map((answer) => (answer as { callId: string }).callId);
    if (stableJson(ids) !== stableJson(message.toolCalls.map((call) => call.callId))) {
      problems.push(`message ${i}: calls ${message.toolCalls.map((c) => c.callId)} answered by ${ids}`);
    }
  }
  return problems;
}

const endOf = (events: readonly AgentEvent[]) => events.at(-1);

describe('context compaction: elide old tool outputs', () => {
  it('keeps a 200-turn run inside a small maxTokens, answers every call once, and replays byte for byte', async () => {
    const client = new Recording(reader(200));
    const { agent, session, config } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 250,
      context: { maxTokens: 12_000 },
    });
    const events = await collect(agent.run('Read the whole document, page by page.'));
    expect(endOf(events)).toMatchObject({ type: 'agent_end', data: { response: 'read them all', turnCount: 201 } });
    expect(client.requests).toHaveLength(201);
    for (const [n, request] of client.requests.entries()) {
      expect(estimateContextTokens(request.messages), `request ${n + 1}`).toBeLessThanOrEqual(12_000);
      expect(pairingProblems(request.messages), `request ${n + 1}`).toEqual([]);
      // The task and the newest observation reach the model verbatim.
      expect(request.messages[0]).toEqual({ role: 'user', content: 'Read the whole document, page by page.' });
      if (n > 0) expect(request.messages.at(-1)?.content).toMatch(new RegExp(`^page ${n}: lorem`));
    }
    const compactions = session.journal.filter((entry) => entry.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(10);
    for (const entry of compactions) {
      expect(entry).toMatchObject({ strategy: 'elide' });
      if (entry.type !== 'compaction') continue;
      expect(entry.tokensAfter).toBeLessThan(entry.tokensBefore - 400);
      expect(entry.tokensBefore).toBeGreaterThan(12_000);
      for (const message of entry.messages) {
        if (message.role === 'tool') expect(message.content).toMatch(/^\[elided 2,000 characters of tool output/);
      }
    }
    // Every call still has its one result in the context, most of them elided.
    const tools = session.messages.filter((message) => message.role === 'tool');
    expect(tools).toHaveLength(200);
    expect(tools.filter((message) => String(message.content).startsWith('[elided ')).length).toBeGreaterThan(190);
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);

    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    expect(replayed.messages).toEqual(session.messages);
    // Each request's context is the replayed context at that point: the fold applies compactions.
    const transitions = session.journal.filter((entry) => entry.type === 'transition' && entry.to === 'compacting');
    expect(transitions).toHaveLength(compactions.length);
  });

  it('uses the tokens the provider reports when it reports them', async () => {
    // This provider counts twice the estimate: compaction starts at half the context the estimate would allow.
    const client = new Recording(reader(30, (messages) => 2 * estimateContextTokens(messages)));
    const { agent, session } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 40,
      context: { maxTokens: 6_000 },
    });
    const events = await collect(agent.run('Read it.'));
    expect(endOf(events)?.type).toBe('agent_end');
    for (const request of client.requests) {
      expect(2 * estimateContextTokens(request.messages)).toBeLessThanOrEqual(6_000);
    }
    const first = session.journal.find((entry) => entry.type === 'compaction');
    expect(first?.type === 'compaction' && first.tokensBefore).toBeGreaterThan(6_000);
  });

  it('never touches the turns it keeps, and ends with context_overflow when they alone are too big', async () => {
    const client = new Recording(reader(5));
    const { agent, session } = makeAgent(client, [() => pageTool(8_000)], {
      cwd: tempWorkspace(),
      context: { maxTokens: 1_000 },
    });
    const events = await collect(agent.run('Read it.'));
    const end = endOf(events);
    expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'context_overflow' } });
    expect(end?.type === 'agent_error' && end.data.message).toMatch(/above context\.maxTokens 1000/);
    // One request was made; its result alone is over the limit and is the newest turn: nothing to elide.
    expect(client.requests).toHaveLength(1);
    expect(session.journal.some((entry) => entry.type === 'compaction')).toBe(false);
    expect(session.messages.at(-1)?.content).toMatch(/^page 1: lorem/);
  });

  it('changes nothing without Config.context', async () => {
    const client = new Recording(reader(12));
    const { agent, session } = makeAgent(client, [() => pageTool(2_000)], { cwd: tempWorkspace(), maxTurns: 20 });
    await collect(agent.run('Read it.'));
    expect(
      session.journal.some(
        (entry) => entry.type === 'compaction' || (entry.type === 'transition' && entry.to === 'compacting'),
      ),
    ).toBe(false);
    expect(estimateContextTokens(client.requests.at(-1)?.messages ?? [])).toBeGreaterThan(6_000);
  });
});

describe('context compaction: summarise old turns', () => {
  it('asks the model for a summary of the old turns and puts it in their place, counting its usage', async () => {
    const summariser = new ScriptedClient(
      Array.from({ length: 10 }, (_, i) => [
        StreamEvent.textDelta(`summary ${i + 1}: read pages so far`),
        StreamEvent.messageComplete(usage(900, 40)),
      ]),
    );
    const client = new Recording(reader(12));
    const { agent, session } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 20,
      context: { maxTokens: 2_000, strategy: 'summarise', client: summariser },
    });
    const events = await collect(agent.run('Read it.'));
    expect(endOf(events)?.type).toBe('agent_end');
    expect(summariser.calls).toBeGreaterThan(1);
    const request = summariser.requests[0];
    // The harness's request: the old context verbatim (tool outputs stay tool messages), no tools.
    expect(request?.tools).toEqual([]);
    expect(request?.messages.at(-1)).toEqual({ role: 'user', content: SUMMARY_REQUEST, author: 'harness' });
    expect(request?.messages.filter((m) => m.role === 'tool').every((m) => String(m.content).startsWith('page '))).toBe(
      true,
    );
    // The model's context: the task, the summary (an assistant message), then the newest turns.
    const last = client.requests.at(-1)?.messages ?? [];
    expect(last[0]?.role).toBe('user');
    expect(last[1]).toMatchObject({ role: 'assistant' });
    expect(last[1]?.content).toMatch(/^\[summary of \d+ earlier messages\]\nsummary \d+: read pages so far$/);
    for (const sent of client.requests) expect(pairingProblems(sent.messages)).toEqual([]);
    // The summaries' usage counts: 940 tokens each, on top of the turns' zero.
    expect(session.totalUsage.totalTokens).toBe(940 * summariser.calls);
    const end = endOf(events);
    expect(end?.type === 'agent_end' && end.data.usage.totalTokens).toBe(940 * summariser.calls);
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)));
    expect(replayed.messages).toEqual(session.messages);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
  });

  it('keeps a 200-turn run inside 3,000 tokens, and replays byte for byte', async () => {
    let summaries = 0;
    const summariser = new ScriptedClient(
      Array.from({ length: 200 }, () => () => [
        StreamEvent.textDelta(`pages read so far, summary ${++summaries}`),
        StreamEvent.messageComplete(),
      ]),
    );
    const client = new Recording(reader(200));
    const { agent, session, config } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 250,
      context: { maxTokens: 3_000, strategy: 'summarise', client: summariser },
    });
    const events = await collect(agent.run('Read the whole document, page by page.'));
    expect(endOf(events)).toMatchObject({ type: 'agent_end', data: { turnCount: 201 } });
    for (const [n, request] of client.requests.entries()) {
      expect(estimateContextTokens(request.messages), `request ${n + 1}`).toBeLessThanOrEqual(3_000);
      expect(pairingProblems(request.messages), `request ${n + 1}`).toEqual([]);
    }
    expect(summaries).toBeGreaterThan(30);
    // Each summary request saw the previous summary: summaries chain, nothing read is lost from view.
    expect(summariser.requests.at(-1)?.messages[1]?.content).toMatch(
      /^\[summary of \d+ earlier messages\]\npages read/,
    );
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    expect(replayed.messages).toEqual(session.messages);
  });

  it('stops with cost_budget when a summary crosses the cost limit, before another request', async () => {
    const summariser = new ScriptedClient([
      [StreamEvent.textDelta('short'), StreamEvent.messageComplete(usage(50_000, 100))],
    ]);
    const client = new Recording(reader(12));
    const { agent } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 20,
      maxCost: 0.01,
      context: { maxTokens: 2_000, strategy: 'summarise', client: summariser },
    });
    const events = await collect(agent.run('Read it.'));
    expect(endOf(events)).toMatchObject({ type: 'agent_error', data: { reason: 'cost_budget' } });
    expect(summariser.calls).toBe(1);
    const before = client.requests.length;
    expect(before).toBeGreaterThan(1);
    expect(client.requests).toHaveLength(before); // no request after the summary
  });

  it('ends with model_error naming the compaction when the summary request fails, and journals no compaction', async () => {
    const summariser = new ScriptedClient([[StreamEvent.error('overloaded')]]);
    const client = new Recording(reader(12));
    const { agent, session } = makeAgent(client, [() => pageTool(2_000)], {
      cwd: tempWorkspace(),
      maxTurns: 20,
      context: { maxTokens: 2_000, strategy: 'summarise', client: summariser },
    });
    const events = await collect(agent.run('Read it.'));
    expect(endOf(events)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    const end = endOf(events);
    expect(end?.type === 'agent_error' && end.data.message).toMatch(/^context compaction failed: .*overloaded/);
    expect(session.journal.some((entry) => entry.type === 'compaction')).toBe(false);
  });
});

describe('Config context', () => {
  it.each([
    [{ maxTokens: 0 }, /context\.maxTokens must be a positive integer, got 0/],
    [{ maxTokens: 1.5 }, /context\.maxTokens must be a positive integer/],
    [{ maxTokens: 100, strategy: 'drop' }, /context\.strategy must be one of elide, summarise, got drop/],
    [{ maxTokens: 100, targetTokens: 200 }, /targetTokens must be a positive integer no larger than maxTokens \(100\)/],
    [{ maxTokens: 100, keepTurns: 0 }, /keepTurns must be a positive integer/],
    [{ maxTokens: 100, client: {} }, /client must have a chatCompletion method/],
    [{ maxToken: 100 }, /did you mean 'maxTokens'/],
    ['big', /context must be an options object/],
  ])('refuses %j', (context, message) => {
    expect(() => new Config({ context: context as never })).toThrow(message);
  });

  it('fills the defaults and takes the American spelling', () => {
    expect(new Config({ context: { maxTokens: 1_000 } }).context).toEqual({
      maxTokens: 1_000,
      strategy: 'elide',
      targetTokens: 500,
      keepTurns: 1,
      client: undefined,
    });
    expect(new Config({ context: { maxTokens: 10, strategy: 'summarize' } }).context?.strategy).toBe('summarise');
  });
});
