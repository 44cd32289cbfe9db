import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicClient } from '../../src/adapters/anthropic/anthropic-client.js';
import { Agent, Config, ToolRegistry } from '../../src/index.js';
import { type MakeAgent, readCassetteFile, recordCassette, replayCassette } from '../../src/testing/index.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { tempWorkspace } from '../support/workspace.js';

// A planted change inside the Anthropic conversion: the user's text gains a trailing space.
const planted = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/adapters/anthropic/convert-messages.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/adapters/anthropic/convert-messages.js')>();
  return {
    ...real,
    toAnthropicPrompt: (messages: Parameters<typeof real.toAnthropicPrompt>[0]) => {
      const prompt = real.toAnthropicPrompt(messages);
      if (!planted.on) return prompt;
      return {
        ...prompt,
        messages: prompt.messages.map((m) => ({
          ...m,
          content: m.content.map((block) =>
            m.role === 'user' && block.type === 'text' ? { ...block, text: `${block.text} ` } : block,
          ),
        })),
      };
    },
  };
});

let server: FakeServer | undefined;
afterEach(async () => {
  planted.on = false;
  await server?.close();
  server = undefined;
});

const model = 'claude-sonnet-4-5';

const maker: MakeAgent = (client) => {
  const config = new Config({ cwd: tempWorkspace(), maxTurns: 2 });
  return new Agent(config, { client, tools: new ToolRegistry(config) });
};

async function recordThroughAnthropic(): Promise<{ path: string; url: string }> {
  server = await startFakeServer([{ chunks: [fixture('anthropic/text.sse')] }]);
  const path = join(tempWorkspace(), 'run.cassette.jsonl');
  const recorder = recordCassette(path, new AnthropicClient({ model, apiKey: 'sk-ant-test', baseURL: server.url }), {
    wire: true,
  });
  const agent = await maker(recorder);
  for await (const _ of agent.run('Say hello.')) {
    // drain
  }
  await recorder.save(agent.session);
  return { path, url: server.url };
}

describe('a cassette with the Anthropic provider body (wire)', () => {
  it('records the body the client sent, and replays an unchanged conversion as ok', async () => {
    const { path, url } = await recordThroughAnthropic();
    const cassette = await readCassetteFile(path);
    expect(cassette.turns.map((turn) => turn.request.wire)).toEqual(server?.requests.map((r) => r.body));
    const wire = new AnthropicClient({ model, apiKey: 'sk-ant-test', baseURL: url });
    expect(await replayCassette(path, { makeAgent: maker, wire })).toEqual({ ok: true });
  });

  it('diverges with kind wire request when the conversion changed', async () => {
    const { path, url } = await recordThroughAnthropic();
    planted.on = true;
    const wire = new AnthropicClient({ model, apiKey: 'sk-ant-test', baseURL: url });
    const report = await replayCassette(path, { makeAgent: maker, wire });
    expect(report.divergence?.kind).toBe('wire request');
    expect(report.divergence?.step.turn).toBe(1);
    expect(report.divergence?.diff).toContain('wire.messages[0].content[0].text');
  });
});
