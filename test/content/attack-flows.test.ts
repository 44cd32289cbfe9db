import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { estimateContextTokens } from '../../src/context/index.js';
import {
  Agent,
  agentTool,
  Config,
  defineTool,
  type Message,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import type { ContentPart } from '../../src/tools/index.js';
import { collect, makeAgent, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A PNG of `width`×`height` (header only, then filler): what a screenshot tool returns. */
function screenshot(width: number, height: number, size = 3000): string {
  const bytes = Buffer.alloc(size, 1);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}
const SHOT = screenshot(1280, 800);

function screenshotTool(calls: string[] = []) {
  return defineTool({
    name: 'look',
    description: 'Takes a screenshot.',
    kind: ToolKind.READ,
    schema: z.object({ n: z.number().int() }),
    execute: ({ params }) => {
      calls.push(`look ${params.n}`);
      return ToolResult.content([
        { type: 'text', text: `screen ${params.n}` },
        { type: 'image', mediaType: 'image/png', data: SHOT },
      ]);
    },
  });
}

/** Each call answered by exactly one tool message right after its assistant message. */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'assistant' || message.toolCalls === undefined) return;
    const ids: string[] = [];
    for (let j = i + 1; j < messages.length && messages[j]?.role === 'tool'; j++) {
      ids.push((messages[j] as { callId: string }).callId);
    }
    const want = message.toolCalls.map((call) => call.callId);
    if (stableJson(ids) !== stableJson(want)) problems.push(`message ${i}: ${want} answered by ${ids}`);
  });
  return problems;
}

const task: ContentPart[] = [
  { type: 'text', text: 'find the login button' },
  { type: 'image', mediaType: 'image/png', data: SHOT },
];

describe('attack: compaction with image tool results', () => {
  it.each([['elide'], ['summarise']] as const)(
    '%s: no crash, pairs kept, under maxTokens, replays byte for byte',
    async (strategy) => {
      const turns = Array.from({ length: 12 }, (_, i) => [
        StreamEvent.toolCallComplete({ callId: `c${i + 1}`, name: 'look', arguments: { n: i + 1 } }),
        StreamEvent.messageComplete(usage(0, 0)),
      ]);
      turns.push([StreamEvent.textDelta('top right'), StreamEvent.messageComplete(usage(0, 0))]);
      const client = new ScriptedClient(turns);
      const summariser = new ScriptedClient(
        Array.from({ length: 20 }, (_, i) => [
          StreamEvent.textDelta(`summary ${i}`),
          StreamEvent.messageComplete(usage(5, 2)),
        ]),
      );
      const context = strategy === 'elide' ? { maxTokens: 8_000 } : { maxTokens: 8_000, strategy, client: summariser };
      const { agent, session, config } = makeAgent(client, [() => screenshotTool()], {
        cwd: tempWorkspace(),
        maxTurns: 20,
        context,
      });
      const events = await collect(agent.run(task));
      expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'top right' } });
      expect(session.journal.some((entry) => entry.type === 'compaction')).toBe(true);
      for (const [n, request] of client.requests.entries()) {
        expect(pairingProblems(request.messages), `request ${n + 1}`).toEqual([]);
        expect(estimateContextTokens(request.messages), `request ${n + 1}`).toBeLessThanOrEqual(8_000);
      }
      // The newest screenshot reaches the model as an image.
      expect(client.requests.at(-1)?.messages.at(-1)?.content).toEqual([
        { type: 'text', text: 'screen 12' },
        { type: 'image', mediaType: 'image/png', data: SHOT },
      ]);
      // A summariser is never sent base64 as text.
      for (const request of summariser.requests) {
        for (const message of request.messages) {
          if (typeof message.content === 'string') expect(message.content).not.toContain(SHOT.slice(0, 200));
        }
      }
      expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
      const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)) as unknown[], config);
      expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
      expect(replayed.messages).toEqual(session.messages);
    },
  );
});

describe('attack: resume after a crash with a parts task', () => {
  it('runs only the unanswered call and sends the task and the recorded image unchanged', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const first = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'look', arguments: { n: 1 } }),
        StreamEvent.toolCallComplete({ callId: 'c2', name: 'look', arguments: { n: 2 } }),
        StreamEvent.messageComplete(usage(5, 2)),
      ],
      textTurn('unused'),
    ]);
    const session = new Session(config, {
      client: first,
      registry: new ToolRegistry(config).register(screenshotTool()),
    });
    await collect(new Agent(config, { session }).run(task));
    // The crash: the journal as it stood after c1's result was recorded.
    const cut = session.journal.findIndex((entry) => entry.type === 'tool_result') + 1;
    const crashed = JSON.parse(JSON.stringify(session.journal.slice(0, cut))) as unknown[];

    const calls: string[] = [];
    const client = new ScriptedClient([textTurn('top right')]);
    const resumed = Session.replay(crashed, config, {
      client,
      registry: new ToolRegistry(config).register(screenshotTool(calls)),
    });
    const events = await collect(new Agent(config, { session: resumed }).resume());
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'top right' } });
    expect(calls).toEqual(['look 2']);
    const sent = client.requests[0]?.messages ?? [];
    expect(sent.find((message) => message.role === 'user')?.content).toEqual(task);
    expect(sent.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      [
        { type: 'text', text: 'screen 1' },
        { type: 'image', mediaType: 'image/png', data: SHOT },
      ],
      [
        { type: 'text', text: 'screen 2' },
        { type: 'image', mediaType: 'image/png', data: SHOT },
      ],
    ]);
  });
});

describe('attack: structured output with a parts task', () => {
  it('the parts reach the model and the answer is parsed', async () => {
    const client = new ScriptedClient([textTurn('{"x": 10, "y": 20}')]);
    const { agent, session } = makeAgent(client, [], { cwd: tempWorkspace() });
    const Point = z.object({ x: z.number(), y: z.number() });
    const events = await collect(agent.run(task, { output: Point }));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent_end', data: { output: { x: 10, y: 20 } } });
    expect(client.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: task });
    expect(client.requests[0]?.output?.name).toBeDefined();
    expect(session.journal.find((entry) => entry.type === 'user_message')).toEqual({
      type: 'user_message',
      content: task,
    });
  });
});

describe('attack: a sub-agent whose tool returns an image', () => {
  it("the child sees the image; the parent gets the child's text answer; the child's journal keeps the part", async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const childClient = new ScriptedClient([toolTurn('k1', 'look', { n: 7 }), textTurn('a login form')]);
    const helper = agentTool({
      name: 'helper',
      description: 'Looks at the screen.',
      config,
      client: childClient,
      registry: new ToolRegistry(config).register(screenshotTool()),
    });
    const parentClient = new ScriptedClient([
      toolTurn('h1', 'helper', { task: 'what is on screen?' }),
      textTurn('done'),
    ]);
    const session = new Session(config, { client: parentClient, registry: new ToolRegistry(config).register(helper) });
    const events = await collect(new Agent(config, { session }).run(task));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(childClient.requests[1]?.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'screen 7' },
      { type: 'image', mediaType: 'image/png', data: SHOT },
    ]);
    expect(parentClient.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', callId: 'h1' });
    expect(JSON.stringify(parentClient.requests[1]?.messages.at(-1)?.content)).toContain('a login form');
    const snapshot = JSON.parse(JSON.stringify(session.toJSON())) as { children?: Record<string, unknown[]> };
    const children = Object.values(snapshot.children ?? {});
    expect(children).toHaveLength(1);
    expect(JSON.stringify(children[0])).toContain(SHOT);
    const rebuilt = Session.fromJSON(snapshot, config);
    expect(stableJson(rebuilt.journal)).toBe(stableJson(session.journal));
  });
});
