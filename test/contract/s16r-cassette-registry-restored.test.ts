// SPEC §17: tool results are served from the recording "by default", and with `tools: 'live'`
// the tools run. A replay with recorded tools answered them by replacing the registry's
// `invokeEager` and never put it back: a registry given again (`agent: { tools: registry }`, or
// one a `makeAgent` keeps) answered every later replay, a live one included, from the first
// recording, and its tools never ran again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Config, defineTool, ToolKind, ToolRegistry } from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { lookupScript, recordRun } from '../cassettes/support/recording.js';

describe('SPEC §17: a replay leaves the registry it answered as it was', () => {
  it('a live replay after a recorded one runs the tools', async () => {
    const looked: string[] = [];
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a word up.',
      kind: ToolKind.READ,
      schema: z.object({ word: z.string() }),
      execute: ({ params }) => {
        looked.push(params.word);
        return `definition of ${params.word}`;
      },
    });
    const { cassette } = await recordRun(lookupScript(), { tools: [lookup] });
    looked.length = 0;
    const config = new Config({});
    const tools = new ToolRegistry(config).register(lookup);
    const recorded = await replayCassette(cassette, { agent: { config, tools } });
    expect(recorded, formatCassetteReport(recorded)).toEqual({ ok: true });
    expect(looked).toEqual([]);
    const live = await replayCassette(cassette, { agent: { config, tools }, tools: 'live' });
    expect(live, formatCassetteReport(live)).toEqual({ ok: true });
    expect(looked.sort()).toEqual(['cat', 'dog', 'eel']);
    expect(await tools.invoke('lookup', { word: 'owl' })).toMatchObject({ success: true, output: 'definition of owl' });
  });
});
