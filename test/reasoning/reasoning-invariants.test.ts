import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CompactionEntry, JournalEntry } from '../../src/core/journal-entry.js';
import type { Message, ReasoningContent } from '../../src/core/messages.js';
import type { ModelClient } from '../../src/core/model-client.js';
import { tokenUsage } from '../../src/core/usage.js';
import { Agent, Config, StreamEvent, ToolRegistry } from '../../src/index.js';
import { checkLoopInvariants, type SentRequest } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/tool.js';

/** An anthropic thinker: `turns` tool turns, each with a signed part and a redacted one, then an answer. */
function thinker(sent: SentRequest[], provider = 'anthropic', turns = 2): ModelClient {
  let n = 0;
  return {
    provider,
    async *chatCompletion(messages: readonly Message[]) {
      sent.push({ messages: structuredClone(messages), provider });
      const k = n++;
      yield StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'anthropic',
        text: `t${k}`,
        signature: `s${k}`,
      });
      yield StreamEvent.reasoningComplete({ type: 'redacted_reasoning', provider: 'anthropic', data: `r${k}` });
      if (k < turns) {
        yield StreamEvent.toolCallComplete({ callId: `c${k}`, name: 'dump', arguments: { n: k } });
        yield StreamEvent.messageComplete(tokenUsage(0, 0), 'tool_calls');
        return;
      }
      yield StreamEvent.textDelta('done');
      yield StreamEvent.messageComplete(tokenUsage(0, 0), 'stop');
    },
  };
}

/** A part without its signature. */
function unsigned(part: ReasoningContent): ReasoningContent {
  if (part.type !== 'reasoning') return part;
  const { signature: _dropped, ...rest } = part;
  return rest;
}

const dump = defineTool({
  name: 'dump',
  description: 'prints a lot',
  kind: 'read',
  schema: z.object({ n: z.number() }),
  execute: ({ params }) => `${params.n}: ${'x'.repeat(2_000)}`,
});

/**
 * A planted bug between the journal and the wire: the harness talks to a client that says it
 * speaks for `provider` and passes the messages, altered by `plant`, to the recording client.
 */
function planted(inner: ModelClient, plant: (parts: ReasoningContent[]) => ReasoningContent[]): ModelClient {
  return {
    provider: 'anthropic',
    chatCompletion: (messages, tools, options) =>
      inner.chatCompletion(
        messages.map((m) => (m.role === 'assistant' && m.reasoning ? { ...m, reasoning: plant([...m.reasoning]) } : m)),
        tools,
        options,
      ),
  };
}

async function journalOf(client: ModelClient, config = new Config()): Promise<readonly JournalEntry[]> {
  const agent = new Agent(config, { client, tools: new ToolRegistry(config).register(dump) });
  for await (const event of agent.run('go')) if (event.type === 'agent_error') throw new Error(event.data.message);
  return agent.session.journal;
}

const integrity = (journal: readonly JournalEntry[], options: Parameters<typeof checkLoopInvariants>[1] = {}) =>
  checkLoopInvariants(journal, options)
    .filter((v) => v.rule === 'reasoning_integrity')
    .map((v) => v.message);

describe('assertLoopInvariants: reasoning_integrity catches planted bugs in what was sent', () => {
  it('passes an unaltered run', async () => {
    const sent: SentRequest[] = [];
    expect(integrity(await journalOf(thinker(sent)), { requests: sent })).toEqual([]);
  });

  it('(a) a dropped signature', async () => {
    const sent: SentRequest[] = [];
    const journal = await journalOf(planted(thinker(sent), (parts) => parts.map(unsigned)));
    expect(integrity(journal, { requests: sent })).toContainEqual(expect.stringMatching(/not the reasoning it made/));
  });

  it('(b) a reordered part', async () => {
    const sent: SentRequest[] = [];
    const journal = await journalOf(planted(thinker(sent), (parts) => parts.reverse()));
    expect(integrity(journal, { requests: sent })).toContainEqual(expect.stringMatching(/not the reasoning it made/));
  });

  it('(c) a part sent to another provider (a client that says anthropic, on an openai wire)', async () => {
    const sent: SentRequest[] = [];
    const journal = await journalOf(planted(thinker(sent, 'openai'), (parts) => parts));
    expect(integrity(journal, { requests: sent })).toContainEqual(
      expect.stringMatching(/a reasoning part of 'anthropic' was sent to 'openai'/),
    );
  });
});

describe('assertLoopInvariants: reasoning_integrity catches planted bugs in a compaction', () => {
  /** A journal whose context was compacted with `strategy`, and the index of its first compaction. */
  async function compacted(strategy: 'elide' | 'summarise') {
    const summariser: ModelClient = {
      provider: 'anthropic',
      async *chatCompletion() {
        yield StreamEvent.textDelta('summary');
        yield StreamEvent.messageComplete(tokenUsage(0, 0), 'stop');
      },
    };
    const config = new Config({
      maxTurns: 30,
      context: { maxTokens: 2_500, strategy, ...(strategy === 'summarise' ? { client: summariser } : {}) },
    });
    const journal = await journalOf(thinker([], 'anthropic', 6), config);
    const at = journal.findIndex((entry) => entry.type === 'compaction');
    expect(at).toBeGreaterThan(0);
    expect(integrity(journal)).toEqual([]);
    return { journal, at, compaction: journal[at] as CompactionEntry };
  }
  const replacing = (journal: readonly JournalEntry[], at: number, messages: Message[]) =>
    journal.map((entry, i) => (i === at ? { ...(entry as CompactionEntry), messages } : entry));

  it('a summary that keeps a reasoning part of a turn it dropped', async () => {
    const { journal, at, compaction } = await compacted('summarise');
    const [summary] = compaction.messages as Message[];
    const part: ReasoningContent = { type: 'reasoning', provider: 'anthropic', text: 't0', signature: 's0' };
    const bad = replacing(journal, at, [{ ...(summary as Message & { role: 'assistant' }), reasoning: [part] }]);
    expect(integrity(bad)).toEqual([expect.stringMatching(/keeps reasoning apart from the turn that made it/)]);
  });

  it('an elision that drops a kept turn’s signature, or reorders its parts', async () => {
    const { journal, at, compaction } = await compacted('elide');
    const alter = (plant: (parts: ReasoningContent[]) => ReasoningContent[]) =>
      replacing(
        journal,
        at,
        compaction.messages.map((m) =>
          m.role === 'assistant' && m.reasoning ? { ...m, reasoning: plant([...m.reasoning]) } : m,
        ),
      );
    const withoutSignature = alter((parts) => parts.map(unsigned));
    expect(integrity(withoutSignature)).toContainEqual(
      expect.stringMatching(/keeps its turn but not its reasoning as made/),
    );
    expect(integrity(alter((parts) => parts.reverse()))).toContainEqual(
      expect.stringMatching(/keeps its turn but not its reasoning as made/),
    );
  });

  it('a tool result that carries a reasoning part', async () => {
    const { journal, at, compaction } = await compacted('elide');
    const part: ReasoningContent = { type: 'redacted_reasoning', provider: 'anthropic', data: 'x' };
    const bad = replacing(
      journal,
      at,
      compaction.messages.map((m) => (m.role === 'tool' ? ({ ...m, reasoning: [part] } as Message) : m)),
    );
    expect(integrity(bad)).toContainEqual(expect.stringMatching(/is a tool message with reasoning/));
  });
});
