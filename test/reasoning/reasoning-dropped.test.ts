import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropForeignReasoning } from '../../src/agent/reasoning-filter.js';
import type { Message, ReasoningContent } from '../../src/core/messages.js';
import type { ModelClient } from '../../src/core/model-client.js';
import { tokenUsage } from '../../src/core/usage.js';
import { Agent, Config, Session, StreamEvent, ToolRegistry } from '../../src/index.js';
import { parseJournal, serializeJournal } from '../../src/session/journal-file.js';
import { assertLoopInvariants, checkLoopInvariants, type SentRequest } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/tool.js';

/** A reasoning model of `provider` (or one naming none): one tool turn with two parts, then an answer with one. */
function thinker(provider: string | undefined, sent: SentRequest[]): ModelClient {
  let requests = 0;
  return {
    ...(provider === undefined ? {} : { provider }),
    async *chatCompletion(messages: readonly Message[]) {
      sent.push({ messages: structuredClone(messages), provider });
      const maker = provider ?? 'nobody';
      const results = requests++;
      yield StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: maker,
        text: 'hmm',
        signature: `s${results}`,
      });
      if (results % 2 === 0) {
        yield StreamEvent.reasoningComplete({ type: 'redacted_reasoning', provider: maker, data: 'opaque' });
        yield StreamEvent.toolCallComplete({ callId: `c${results}`, name: 'echo', arguments: { n: results } });
        yield StreamEvent.messageComplete(tokenUsage(10, 2), 'tool_calls');
        return;
      }
      yield StreamEvent.textDelta('done');
      yield StreamEvent.messageComplete(tokenUsage(10, 2), 'stop');
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

async function run(agent: Agent, task: string): Promise<void> {
  for await (const event of agent.run(task)) if (event.type === 'agent_error') throw new Error(event.data.message);
}

/** A session that reasoned with anthropic, continued on a client of `provider`. */
async function continued(provider: string | undefined, config = new Config({ systemPrompt: 'be brief' })) {
  const first = new Agent(config, { client: thinker('anthropic', []), tools: new ToolRegistry(config).register(echo) });
  await run(first, 'go');
  const sent: SentRequest[] = [];
  const later = new Agent(config, {
    session: Session.replay(first.session.journal, config),
    client: thinker(provider, sent),
    tools: new ToolRegistry(config).register(echo),
  });
  await run(later, 'and again');
  return { journal: later.session.journal, from: first.session.journal.length, sent, config };
}

const anthropicParts = (messages: readonly Message[]): ReasoningContent[] =>
  messages
    .flatMap((m) => (m.role === 'assistant' ? (m.reasoning ?? []) : []))
    .filter((p) => p.provider === 'anthropic');

describe('a foreign reasoning part is dropped with a journaled note (SPEC §15)', () => {
  it('a session reasoned with anthropic, continued with an openai client: no anthropic part is sent, each drop is noted once per request', async () => {
    const { journal, from, sent, config } = await continued('openai');
    expect(sent.length).toBe(2);
    for (const request of sent) expect(anthropicParts(request.messages)).toEqual([]);
    const starts = journal.slice(from).filter((entry) => entry.type === 'turn_start');
    // Context: system, user, assistant (2 parts), tool, assistant answer (1 part), user, …
    const earlier = [
      { provider: 'anthropic', message: 2, part: 0, reason: 'other_provider', client: 'openai' },
      { provider: 'anthropic', message: 2, part: 1, reason: 'other_provider', client: 'openai' },
      { provider: 'anthropic', message: 4, part: 0, reason: 'other_provider', client: 'openai' },
    ];
    expect(starts).toEqual([
      { type: 'turn_start', droppedReasoning: earlier },
      { type: 'turn_start', droppedReasoning: earlier },
    ]);
    // The openai turn's own parts still go back to openai.
    expect(sent[1]?.messages.at(-2)).toMatchObject({
      role: 'assistant',
      reasoning: [{ provider: 'openai' }, { provider: 'openai' }],
    });
    assertLoopInvariants(journal, { config, requests: sent });
    expect(serializeJournal(parseJournal(serializeJournal(journal)))).toBe(serializeJournal(journal));
    expect(serializeJournal(Session.replay(journal, config).journal)).toBe(serializeJournal(journal));
  });

  it('a client that names no provider gets no part, and the note says so by naming none', async () => {
    const { journal, from, sent, config } = await continued(undefined);
    expect(anthropicParts(sent[0]?.messages ?? [])).toEqual([]);
    const start = journal.slice(from).find((entry) => entry.type === 'turn_start');
    expect(start).toMatchObject({ droppedReasoning: { length: 3, 0: { provider: 'anthropic', message: 2, part: 0 } } });
    expect(start?.type === 'turn_start' ? start.droppedReasoning?.[0] : undefined).not.toHaveProperty('client');
    assertLoopInvariants(journal, { config });
  });

  it('a request to the provider that made the parts notes nothing', async () => {
    const { journal, from } = await continued('anthropic');
    expect(journal.slice(from).filter((entry) => entry.type === 'turn_start')).toEqual([
      { type: 'turn_start' },
      { type: 'turn_start' },
    ]);
  });

  it('refuses a malformed note, naming the entry and the field', () => {
    expect(() =>
      Session.replay([
        {
          type: 'turn_start',
          droppedReasoning: [{ provider: 'anthropic', message: -1, part: 0, reason: 'other_provider' }],
        },
      ]),
    ).toThrow(/journal entry 0: droppedReasoning\[0\]\.message and \.part must be non-negative integers/);
    expect(() => Session.replay([{ type: 'turn_start', droppedReasoning: [] }])).toThrow(
      /journal entry 0: 'droppedReasoning'/,
    );
    expect(() =>
      new Session(new Config()).startTurn([{ provider: '', message: 0, part: 0, reason: 'other_provider' }]),
    ).toThrow(/startTurn: droppedReasoning\[0\]\.provider/);
  });
});

describe('the journal check (reasoning_integrity) on the notes', () => {
  const rules = (journal: readonly unknown[], config: Config) =>
    checkLoopInvariants(journal as never, { config }).filter((v) => v.rule === 'reasoning_integrity');
  /** The journal with the first turn_start after `from` given `notes`. */
  const withNotes = (journal: readonly object[], from: number, notes: (all: object[]) => object[]) => {
    const at = journal.findIndex((entry, i) => i >= from && (entry as { type: string }).type === 'turn_start');
    const start = journal[at] as { droppedReasoning: object[] };
    return journal.map((entry, i) =>
      i === at ? { type: 'turn_start', droppedReasoning: notes([...start.droppedReasoning]) } : entry,
    );
  };

  it('catches a part left out without a note', async () => {
    const { journal, from, config } = await continued('openai');
    expect(
      rules(
        withNotes(journal, from, (all) => all.slice(1)),
        config,
      ),
    ).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/does not note message 2 part 0 \(anthropic\)/) }),
    ]);
  });

  it('catches a note naming a part the context does not hold, or noting one twice', async () => {
    const { journal, from, config } = await continued('openai');
    const wrong = withNotes(journal, from, (all) => [...all, { ...all[0], message: 3 }]);
    expect(rules(wrong, config)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/message 3 part 0, which the context does not hold/) }),
    ]);
    const twice = withNotes(journal, from, (all) => [...all, all[0] as object]);
    expect(rules(twice, config)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/notes message 2 part 0 twice/) }),
    ]);
  });

  it('catches a note of a part dropped for its own provider', async () => {
    const { journal, from, config } = await continued('openai');
    const own = withNotes(journal, from, (all) => all.map((note) => ({ ...note, client: 'anthropic' })));
    expect(rules(own, config).map((v) => v.message)).toContainEqual(
      expect.stringMatching(/as dropped for its own provider 'anthropic'/),
    );
  });
});

describe('the notes through fork and handoff', () => {
  const part: ReasoningContent = { type: 'reasoning', provider: 'anthropic', text: 'hmm', signature: 's' };
  /** A session without a system prompt that reasoned on a tool turn. */
  function reasoned(): Session {
    const session = new Session(new Config());
    session.addUserMessage('go');
    session.addAssistantMessage('', [{ callId: 'c1', name: 'echo', arguments: { n: 1 } }], [part]);
    session.addToolResult('c1', 'echo 1');
    return session;
  }
  const integrity = (session: Session) =>
    checkLoopInvariants(session.journal, { config: new Config() }).filter((v) => v.rule === 'reasoning_integrity');

  it('a handoff puts a system message first: the notes index the context the request was sent with', () => {
    const session = reasoned();
    const before = dropForeignReasoning(session.messagesForRequest(), 'openai');
    session.recordHandoff('main', 'helper', 'you help');
    const after = dropForeignReasoning(session.messagesForRequest(), 'openai');
    expect(before?.[0]?.message).toBe(1);
    expect(after?.[0]?.message).toBe(2);
    const stale = reasoned();
    stale.recordHandoff('main', 'helper', 'you help');
    stale.startTurn(before);
    expect(integrity(stale).map((v) => v.message)).toContainEqual(
      expect.stringMatching(/message 1 part 0, which the context does not hold/),
    );
    session.startTurn(after);
    expect(integrity(session)).toEqual([]);
  });

  it('a fork keeps the notes of the requests before it, and they still match its context', async () => {
    const { journal, config } = await continued('openai');
    const source = Session.replay(journal, config);
    const at = journal.findLastIndex((entry) => entry.type === 'turn_start') + 1;
    const fork = await source.fork({ at });
    expect(fork.journal.at(-1)).toMatchObject({ type: 'turn_start', droppedReasoning: { length: 3 } });
    expect(checkLoopInvariants(fork.journal, { config }).filter((v) => v.rule === 'reasoning_integrity')).toEqual([]);
  });
});
