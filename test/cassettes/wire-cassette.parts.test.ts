import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OpenAIApi, OpenAIClient } from '../../src/adapters/openai/openai-client.js';
import { Agent, Config, defineTool, ToolRegistry, ToolResult } from '../../src/index.js';
import { type MakeAgent, readCassetteFile, recordCassette, replayCassette } from '../../src/testing/index.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { PDF, PNG } from '../adapters/support/parts.js';
import { tempWorkspace } from '../support/workspace.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = 'gpt-4.1-mini';

/** An agent whose read_file (the fixtures' calls) returns a screenshot. */
function maker(cwd: string): MakeAgent {
  return (client) => {
    const config = new Config({ cwd, maxTurns: 4 });
    const tools = new ToolRegistry(config).register(
      defineTool({
        name: 'read_file',
        description: 'Reads a file as an image.',
        kind: 'read',
        schema: z.object({ path: z.string() }),
        execute: ({ params }) =>
          ToolResult.content([
            { type: 'text', text: params.path },
            { type: 'image', mediaType: 'image/png', data: PNG },
          ]),
      }),
    );
    return new Agent(config, { client, tools });
  };
}

async function record(cwd: string, api: OpenAIApi): Promise<{ path: string; url: string }> {
  const fixtures = api === 'chat' ? 'openai' : 'openai-responses';
  server = await startFakeServer([
    { chunks: [fixture(`${fixtures}/${api === 'chat' ? 'parallel-tool-calls' : 'function-call'}.sse`)] },
    { chunks: [fixture(`${fixtures}/text.sse`)] },
  ]);
  const url = `${server.url}/v1`;
  const path = join(cwd, 'parts.cassette.jsonl');
  const recorder = recordCassette(path, new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url, api }), {
    wire: true,
  });
  const agent = await maker(cwd)(recorder);
  const task = [
    { type: 'text' as const, text: 'Compare the spec with the screens.' },
    { type: 'file' as const, mediaType: 'application/pdf', data: PDF, name: 'spec.pdf' },
  ];
  for await (const _ of agent.run(task)) {
    // drain
  }
  await recorder.save(agent.session);
  return { path, url };
}

describe.each(['chat', 'responses'] as const)('a wire cassette of a run with images and files (%s)', (api) => {
  it('records the bodies with their parts as sent, and replays them as ok', async () => {
    const cwd = tempWorkspace();
    const { path, url } = await record(cwd, api);
    const cassette = await readCassetteFile(path);
    const bodies = server?.requests.map((request) => request.body);
    expect(cassette.turns.map((turn) => turn.request.wire)).toEqual(bodies);
    expect(JSON.stringify(bodies?.[1])).toContain(`data:image/png;base64,${PNG}`);
    expect(JSON.stringify(bodies?.[1])).toContain(`data:application/pdf;base64,${PDF}`);
    const wire = new OpenAIClient({ model, apiKey: 'sk-test', baseURL: url, api });
    expect(await replayCassette(path, { makeAgent: maker(cwd), wire })).toEqual({ ok: true });
  });
});
