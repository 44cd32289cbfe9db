import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type OpenAIApi, OpenAIClient } from '../../src/adapters/openai/openai-client.js';
import type { OpenAIMessage } from '../../src/adapters/openai/openai-types.js';
import { Agent, Config, ReadFileTool, Session, ToolRegistry } from '../../src/index.js';
import { MemoryStore } from '../../src/stores/index.js';
import {
  type MakeAgent,
  readCassetteFile,
  recordCassette,
  replayCassette,
  ScriptedClient,
  updateCassette,
} from '../../src/testing/index.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../adapters/support/fake-server.js';
import { tempWorkspace } from '../support/workspace.js';

// The planted change lives inside the adapter's conversion, below the ModelClient boundary that
// the cassette's messages are compared at: a tool result's content gains a prefix on the wire.
const planted = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/adapters/openai/convert-messages.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/adapters/openai/convert-messages.js')>();
  return {
    ...real,
    toOpenAIMessages: (messages: Parameters<typeof real.toOpenAIMessages>[0]): OpenAIMessage[] =>
      real
        .toOpenAIMessages(messages)
        .map((m) => (planted.on && m.role === 'tool' ? { ...m, content: `result: ${String(m.content)}` } : m)),
  };
});

let server: FakeServer | undefined;
afterEach(async () => {
  planted.on = false;
  await server?.close();
  server = undefined;
});

const model = 'gpt-4.1-mini';

function workspace(): string {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'app.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(cwd, 'notes.md'), '# Notes\n');
  return cwd;
}

/** The agent; with `id`, in a session of that id in a store (its requests then carry the id). */
function maker(cwd: string, id?: string): MakeAgent {
  return (client) => {
    const config = new Config({ cwd, maxTurns: 4 });
    const session = id === undefined ? {} : { session: new Session(config, { store: new MemoryStore(), id }) };
    return new Agent(config, {
      client,
      tools: new ToolRegistry(config).register(new ReadFileTool(config)),
      ...session,
    });
  };
}

/**
 * Records a two-turn run (two parallel reads, then an answer) through the real OpenAI client, on
 * Chat Completions or the Responses API.
 */
async function recordThroughOpenAI(
  cwd: string,
  api: OpenAIApi = 'chat',
  id?: string,
): Promise<{ path: string; url: string }> {
  const fixtures = api === 'chat' ? 'openai' : 'openai-responses';
  server = await startFakeServer([
    { chunks: splitBytes(fixture(`${fixtures}/${api === 'chat' ? 'parallel-tool-calls' : 'function-call'}.sse`), 11) },
    { chunks: [fixture(`${fixtures}/text.sse`)] },
  ]);
  const url = `${server.url}/v1`;
  const path = join(cwd, 'run.cassette.jsonl');
  const client = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url, api });
  const recorder = recordCassette(path, client, { wire: true });
  const agent = await maker(cwd, id)(recorder);
  for await (const _ of agent.run('What is in the folder?')) {
    // drain
  }
  await recorder.save(agent.session);
  return { path, url };
}

describe('a cassette with the provider request body (wire)', () => {
  it('records the body the OpenAI client sent, turn by turn', async () => {
    const cwd = workspace();
    const { path } = await recordThroughOpenAI(cwd);
    const cassette = await readCassetteFile(path);
    expect(cassette.turns).toHaveLength(2);
    expect(cassette.turns.map((turn) => turn.request.wire)).toEqual(server?.requests.map((r) => r.body));
  });

  it('replays an unchanged adapter as ok, sending nothing', async () => {
    const cwd = workspace();
    const { path, url } = await recordThroughOpenAI(cwd);
    const sent = server?.requests.length;
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url });
    const report = await replayCassette(path, { makeAgent: maker(cwd), wire });
    expect(report).toEqual({ ok: true });
    expect(server?.requests.length).toBe(sent);
  });

  it('diverges at the turn whose conversion changed, with kind wire request and the diff', async () => {
    const cwd = workspace();
    const { path, url } = await recordThroughOpenAI(cwd);
    planted.on = true;
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url });
    const report = await replayCassette(path, { makeAgent: maker(cwd), wire });
    expect(report.ok).toBe(false);
    // Turn 1 sends no tool result, so its body is unchanged; turn 2 sends the two results.
    expect(report.divergence?.kind).toBe('wire request');
    expect(report.divergence?.step.turn).toBe(2);
    expect(report.divergence?.diff).toContain('wire.messages[2].content');
    expect(report.divergence?.diff).toContain('result: ');
  });

  it('without a wire client, compares at the ModelClient boundary only, where the change is not seen', async () => {
    const cwd = workspace();
    const { path } = await recordThroughOpenAI(cwd);
    planted.on = true;
    expect(await replayCassette(path, { makeAgent: maker(cwd) })).toEqual({ ok: true });
  });

  it('leaves a wire path out with ignore', async () => {
    const cwd = workspace();
    const { path, url } = await recordThroughOpenAI(cwd);
    planted.on = true;
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url });
    const report = await replayCassette(path, { makeAgent: maker(cwd), wire, ignore: ['wire.messages[*].content'] });
    expect(report).toEqual({ ok: true });
  });

  it('stands a placeholder for the session id the Responses API body carries, so a new session replays ok', async () => {
    const cwd = workspace();
    const { path, url } = await recordThroughOpenAI(cwd, 'responses', 'recorded-session');
    const cassette = await readCassetteFile(path);
    const sent = server?.requests.map((r) => r.body as { prompt_cache_key: string }) ?? [];
    expect(sent.map((body) => body.prompt_cache_key)).toEqual(['recorded-session', 'recorded-session']);
    expect(cassette.turns.map((turn) => turn.request.wire)).toEqual(
      sent.map((body) => ({ ...body, prompt_cache_key: '<session id>' })),
    );
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url, api: 'responses' });
    expect(await replayCassette(path, { makeAgent: maker(cwd, 'replayed-session'), wire })).toEqual({ ok: true });
  });

  it('keeps the new bodies when a cassette is updated with a wire client', async () => {
    const cwd = workspace();
    const { path, url } = await recordThroughOpenAI(cwd);
    planted.on = true;
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url });
    const { cassette } = await updateCassette(path, { makeAgent: maker(cwd), wire });
    expect(JSON.stringify(cassette.turns[1]?.request.wire)).toContain('result: ');
    expect(await replayCassette(cassette, { makeAgent: maker(cwd), wire })).toEqual({ ok: true });
  });

  it('refuses wire with a client that cannot show its body, naming the option', () => {
    expect(() => recordCassette('unused.jsonl', new ScriptedClient([]), { wire: true })).toThrow(
      /wire: true needs a client that exposes its request body/,
    );
    return expect(
      replayCassette('unused.jsonl', { makeAgent: maker(workspace()), wire: new ScriptedClient([]) }),
    ).rejects.toThrow(/wire needs a client that exposes its request body/);
  });
});
