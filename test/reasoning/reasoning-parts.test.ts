import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message, ReasoningContent } from '../../src/core/messages.js';
import type { ModelClient } from '../../src/core/model-client.js';
import { tokenUsage } from '../../src/core/usage.js';
import { Agent, Config, Session, StreamEvent, ToolRegistry } from '../../src/index.js';
import { serializeJournal } from '../../src/session/journal-file.js';
import { assertLoopInvariants, checkReasoningIntegrity, type SentRequest } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/tool.js';

const thought = (n: number): ReasoningContent => ({
  type: 'reasoning',
  provider: 'anthropic',
  text: `thinking ${n}`,
  signature: `sig-${n}`,
});
const hidden: ReasoningContent = { type: 'redacted_reasoning', provider: 'anthropic', data: 'opaque==' };

/** A reasoning model: two tool turns (reasoning before each call), then an answer with reasoning. */
function reasoningClient(provider: string, sent: SentRequest[]): ModelClient {
  return {
    provider,
    model: 'thinker',
    async *chatCompletion(messages: readonly Message[]) {
      sent.push({ messages: structuredClone(messages), provider });
      const done = messages.filter((message) => message.role === 'tool').length;
      yield StreamEvent.reasoningDelta('let me ');
      yield StreamEvent.reasoningDelta('think');
      yield StreamEvent.reasoningComplete({ ...thought(done + 1), provider });
      if (done === 0) yield StreamEvent.reasoningComplete({ ...hidden, provider });
      if (done < 2) {
        yield StreamEvent.toolCallComplete({ callId: `call_${done + 1}`, name: 'echo', arguments: { n: done + 1 } });
        yield StreamEvent.messageComplete(
          { ...tokenUsage(100, 20), reasoningTokens: 12, cachedPromptTokens: 60 },
          'tool_calls',
        );
        return;
      }
      yield StreamEvent.textDelta('done');
      yield StreamEvent.messageComplete(tokenUsage(100, 5), 'stop');
    },
  };
}

const echo = defineTool({
  name: 'echo',
  description: 'echoes n',
  kind: 'read',
  schema: z.object({ n: z.number() }),
  execute: ({ params }) => `echo ${params.n}`,
});

async function runToEnd(agent: Agent, task: string) {
  const events = [];
  for await (const event of agent.run(task)) events.push(event);
  return events;
}

describe('reasoning parts (SPEC §15)', () => {
  it('journals each turn’s parts with its message, streams reasoning_delta, and sends them back unchanged to their provider', async () => {
    const config = new Config();
    const sent: SentRequest[] = [];
    const agent = new Agent(config, {
      client: reasoningClient('anthropic', sent),
      tools: new ToolRegistry(config).register(echo),
    });
    const events = await runToEnd(agent, 'go');
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(events.filter((event) => event.type === 'reasoning_delta').map((event) => event.data)).toContainEqual({
      content: 'let me ',
    });
    const journal = agent.session.journal;
    assertLoopInvariants(journal);
    const assistants = journal.filter((entry) => entry.type === 'assistant_message');
    expect(assistants[0]).toMatchObject({ reasoning: [thought(1), hidden] });
    expect(assistants[1]).toMatchObject({ reasoning: [thought(2)] });
    expect(journal.at(-1)).toMatchObject({ type: 'agent_end', reasoning: [thought(3)] });
    // The third request carries both earlier turns' parts, in order, with their calls.
    const third = sent[2]?.messages.filter((message) => message.role === 'assistant');
    expect(third).toEqual([
      expect.objectContaining({
        reasoning: [thought(1), hidden],
        toolCalls: [expect.objectContaining({ callId: 'call_1' })],
      }),
      expect.objectContaining({ reasoning: [thought(2)], toolCalls: [expect.objectContaining({ callId: 'call_2' })] }),
    ]);
    expect(checkReasoningIntegrity(journal, sent)).toEqual([]);
    expect(agent.session.totalUsage).toMatchObject({ reasoningTokens: 24, cachedPromptTokens: 120 });
  });

  it('never sends a part to another provider: a session continued on another client gets none', async () => {
    const config = new Config();
    const first: SentRequest[] = [];
    const agent = new Agent(config, {
      client: reasoningClient('anthropic', first),
      tools: new ToolRegistry(config).register(echo),
    });
    await runToEnd(agent, 'go');
    const later: SentRequest[] = [];
    const other = new Agent(config, {
      session: Session.replay(agent.session.journal, config),
      client: reasoningClient('openai', later),
      tools: new ToolRegistry(config).register(echo),
    });
    await runToEnd(other, 'and again');
    const parts = later[0]?.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.reasoning ?? []) : [],
    );
    expect(parts).toEqual([]);
    expect(checkReasoningIntegrity(other.session.journal, later)).toEqual([]);
  });

  it('keeps the parts through a saved journal, replay and fork, byte for byte', async () => {
    const config = new Config();
    const agent = new Agent(config, {
      client: reasoningClient('anthropic', []),
      tools: new ToolRegistry(config).register(echo),
    });
    await runToEnd(agent, 'go');
    const text = serializeJournal(agent.session.journal);
    expect(text.split('\n')[0]).toBe('{"format":"agent-harness-journal","version":6}');
    const replayed = Session.replay(agent.session.journal, config);
    expect(serializeJournal(replayed.journal)).toBe(text);
    const fork = await replayed.fork({ at: replayed.journal.length });
    expect(fork.messages.filter((message) => message.role === 'assistant').map((message) => message.reasoning)).toEqual(
      [[thought(1), hidden], [thought(2)]],
    );
    // The answer's parts join its message when the conversation goes on.
    fork.addUserMessage('next');
    expect(fork.messages.filter((message) => message.role === 'assistant').at(-1)).toEqual({
      role: 'assistant',
      content: 'done',
      reasoning: [thought(3)],
    });
  });

  it('resumes a reasoning run cut after its second tool call started: the turns go back with their parts, in order', async () => {
    const config = new Config();
    let cut: unknown[] = [];
    const tools = (onRun?: (n: number) => void) =>
      new ToolRegistry(config).register(
        defineTool({
          name: 'echo',
          description: 'echoes n',
          kind: 'read',
          schema: z.object({ n: z.number() }),
          execute: ({ params }) => {
            onRun?.(params.n);
            return `echo ${params.n}`;
          },
        }),
      );
    const session = new Session(config, {
      client: reasoningClient('anthropic', []),
      registry: tools((n) => {
        if (n === 2) cut = JSON.parse(JSON.stringify(session.journal)) as unknown[];
      }),
    });
    await runToEnd(new Agent(config, { session }), 'go');
    expect(cut.length).toBeGreaterThan(0);

    const sent: SentRequest[] = [];
    const revived = Session.replay(cut, config, { client: reasoningClient('anthropic', sent), registry: tools() });
    const events = [];
    for await (const event of new Agent(config, { session: revived }).resume()) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(sent).toHaveLength(1);
    const assistants = sent[0]?.messages.filter((message) => message.role === 'assistant') ?? [];
    expect(assistants.map((message) => message.reasoning)).toEqual([[thought(1), hidden], [thought(2)]]);
    expect(checkReasoningIntegrity(revived.journal, sent)).toEqual([]);
    assertLoopInvariants(revived.journal);
  });

  it('ends the run with model_error on a malformed part, journaling none of it', async () => {
    const config = new Config();
    const agent = new Agent(config, {
      client: {
        provider: 'anthropic',
        async *chatCompletion() {
          yield StreamEvent.reasoningComplete({ type: 'reasoning', provider: 'anthropic', signature: 42 } as never);
          yield StreamEvent.messageComplete(tokenUsage(1, 1), 'stop');
        },
      },
    });
    const events = await runToEnd(agent, 'go');
    expect(events.at(-1)).toMatchObject({
      type: 'agent_error',
      data: { reason: 'model_error', message: expect.stringContaining('signature must be text') },
    });
    expect(JSON.stringify(agent.session.journal)).not.toContain('reasoning":[');
  });

  it('refuses summary parts that are not the summary, or fewer than two', () => {
    const entry = (part: object) => [
      { type: 'assistant_message', content: 'x', reasoning: [{ type: 'reasoning', provider: 'openai', ...part }] },
    ];
    expect(() => Session.replay(entry({ summary: 'a\n\nb', summaryParts: ['a', 'c'] }), new Config())).toThrow(
      /journal entry 0: reasoning\[0\]: a reasoning part's summary must be its summaryParts joined by a blank line/,
    );
    expect(() => Session.replay(entry({ summary: 'a', summaryParts: ['a'] }), new Config())).toThrow(
      /summaryParts must be two texts or more/,
    );
    const kept = Session.replay(entry({ summary: 'a\n\nb', summaryParts: ['a', 'b'] }), new Config());
    expect(kept.journal[0]).toMatchObject({ reasoning: [{ summaryParts: ['a', 'b'] }] });
  });

  it('refuses text parts that are not the text, or fewer than two', () => {
    const entry = (part: object) => [
      { type: 'assistant_message', content: 'x', reasoning: [{ type: 'reasoning', provider: 'openai', ...part }] },
    ];
    expect(() => Session.replay(entry({ text: 'a\n\nb', textParts: ['a', 'c'] }), new Config())).toThrow(
      /journal entry 0: reasoning\[0\]: a reasoning part's text must be its textParts joined by a blank line/,
    );
    expect(() => Session.replay(entry({ text: 'a', textParts: ['a'] }), new Config())).toThrow(
      /textParts must be two texts or more/,
    );
    expect(() => Session.replay(entry({ textParts: ['a', 'b'] }), new Config())).toThrow(
      /text must be its textParts joined/,
    );
    const kept = Session.replay(entry({ text: 'a\n\nb', textParts: ['a', 'b'] }), new Config());
    expect(kept.journal[0]).toMatchObject({ reasoning: [{ text: 'a\n\nb', textParts: ['a', 'b'] }] });
  });

  it('refuses a journal whose reasoning is malformed, naming the entry', () => {
    expect(() =>
      Session.replay([{ type: 'assistant_message', content: 'x', reasoning: [{ type: 'reasoning' }] }], new Config()),
    ).toThrow(/journal entry 0: reasoning\[0\]: a reasoning part needs the provider that made it/);
  });
});

describe('checkReasoningIntegrity catches the planted bugs', () => {
  async function recorded() {
    const config = new Config();
    const sent: SentRequest[] = [];
    const agent = new Agent(config, {
      client: reasoningClient('anthropic', sent),
      tools: new ToolRegistry(config).register(echo),
    });
    await runToEnd(agent, 'go');
    return { journal: agent.session.journal, sent };
  }
  /** The last request with its first turn's reasoning changed by `plant`. */
  function planted(sent: SentRequest[], plant: (parts: ReasoningContent[]) => ReasoningContent[], provider?: string) {
    const last = sent.at(-1) as SentRequest;
    let done = false;
    const messages = last.messages.map((message) => {
      if (done || message.role !== 'assistant' || message.reasoning === undefined) return message;
      done = true;
      return { ...message, reasoning: plant([...message.reasoning]) };
    });
    return [...sent.slice(0, -1), { messages, provider: provider ?? last.provider }];
  }

  it('a dropped signature', async () => {
    const { journal, sent } = await recorded();
    const bad = planted(sent, (parts) =>
      parts.map((part) => (part.type === 'reasoning' ? { ...part, signature: undefined } : part)),
    );
    expect(checkReasoningIntegrity(journal, bad)).toEqual([expect.stringMatching(/not the reasoning it made/)]);
  });

  it('a reordered part', async () => {
    const { journal, sent } = await recorded();
    expect(
      checkReasoningIntegrity(
        journal,
        planted(sent, (parts) => parts.reverse()),
      ),
    ).toEqual([expect.stringMatching(/not the reasoning it made/)]);
  });

  it('a part sent to another provider', async () => {
    const { journal, sent } = await recorded();
    const problems = checkReasoningIntegrity(
      journal,
      planted(sent, (parts) => parts, 'openai'),
    );
    expect(problems).toContainEqual(expect.stringMatching(/a reasoning part of 'anthropic' was sent to 'openai'/));
  });

  it('a turn sent without its reasoning (separated from its tool calls)', async () => {
    const { journal, sent } = await recorded();
    expect(
      checkReasoningIntegrity(
        journal,
        planted(sent, () => []),
      ),
    ).toEqual([expect.stringMatching(/not the reasoning it made/)]);
  });
});
