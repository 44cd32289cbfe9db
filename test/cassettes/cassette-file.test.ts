import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, HarnessError, Session, StreamEvent, ToolKind } from '../../src/index.js';
import { writeJournalFile } from '../../src/journal.js';
import {
  CASSETTE_VERSION,
  expectCassette,
  parseCassette,
  readCassetteFile,
  replayCassette,
  serializeCassette,
  writeCassetteFile,
} from '../../src/testing/index.js';
import { agentMaker, lookupScript, lookupTool, recordRun, waitTool } from './support/recording.js';

const prompt = { systemPrompt: 'You define words.' };
const folder = (): string => mkdtempSync(join(tmpdir(), 'cassette-'));

describe('cassette files', () => {
  it('round-trip through versioned JSONL (stable, private) and replay from the file', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const path = join(folder(), 'run.cassette.jsonl');
    await writeCassetteFile(path, cassette);
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text.split('\n')[0] as string)).toMatchObject({
      format: 'agent-harness-cassette',
      version: CASSETTE_VERSION,
      source: 'recording',
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(serializeCassette(parseCassette(text))).toBe(text);
    // Each request stores only the messages it adds to the last one.
    const requests = text.split('\n').filter((line) => line.includes('"kind":"request"'));
    expect(requests.map((line) => (JSON.parse(line) as { keep: number }).keep)).toEqual([0, 2, 5]);
    await expect(expectCassette(path, agentMaker({ config: prompt }))).resolves.toBeUndefined();
  });

  it('refuses a cassette of a newer version, naming it', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const text = serializeCassette(cassette).replace(`"version":${CASSETTE_VERSION}`, '"version":7');
    expect(() => parseCassette(text, { source: 'future.jsonl' })).toThrow(
      /future\.jsonl is a cassette of version 7, newer than this library reads/,
    );
    try {
      parseCassette(text);
    } catch (error) {
      expect(HarnessError.isInstance(error) && error.reason).toBe('unsupported_cassette_version');
    }
  });

  it('names a malformed line', () => {
    const header = '{"format":"agent-harness-cassette","version":1,"source":"recording","redact":[]}';
    expect(() => parseCassette(`${header}\n{"kind":"answer","turn":1,"events":[]}\n`)).toThrow(
      /line 2 is not the answer/,
    );
    expect(() => parseCassette(`${header}\nnot json\n`)).toThrow(/line 2 is not JSON/);
  });

  it('never writes secrets: API keys, Authorization headers, user:pass@ URLs, and --redact patterns', async () => {
    const env = { OPENAI_API_KEY: 'sk-live-0123456789abcdefXYZ', HOME: '/home/me' };
    const leaky = defineTool({
      name: 'fetch_page',
      description: 'Fetches a page.',
      kind: ToolKind.NETWORK,
      schema: z.object({ url: z.string() }),
      execute: () => 'sent Authorization: Bearer abcdef0123456789 to https://me:hunter22@example.com/x, ticket-4711',
    });
    const turns = [
      [
        StreamEvent.toolCallComplete({
          callId: 'c1',
          name: 'fetch_page',
          arguments: { url: 'https://me:hunter22@example.com/x', apiKey: 'plain-secret-value' },
        }),
        StreamEvent.messageComplete(undefined, 'tool_calls'),
      ],
      [StreamEvent.textDelta('done with sk-live-0123456789abcdefXYZ'), StreamEvent.messageComplete(undefined, 'stop')],
    ];
    const parts = { config: prompt, tools: [leaky] };
    const { cassette } = await recordRun(turns, parts, {
      env,
      redact: ['ticket-\\d+'],
      input: 'use key sk-live-0123456789abcdefXYZ',
    });
    const text = serializeCassette(cassette);
    for (const secret of [
      'sk-live-0123456789abcdefXYZ',
      'abcdef0123456789',
      'hunter22',
      'ticket-4711',
      'plain-secret-value',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('https://***@example.com/x');
    // The new run is redacted alike before it is compared, so it still matches.
    const report = await replayCassette(parseCassette(text), { makeAgent: agentMaker(parts), tools: 'live', env });
    expect(report.ok, report.divergence?.message).toBe(true);
  });

  it('treats any journal as a cassette: a session, a journal file, an array of entries', async () => {
    const { agent } = await recordRun(lookupScript(), { config: prompt });
    const maker = agentMaker({ config: prompt });
    expect(await replayCassette(agent.session, { makeAgent: maker })).toEqual({ ok: true });
    const path = join(folder(), 'run.journal.jsonl');
    await writeJournalFile(path, agent.session.journal);
    expect(await replayCassette(path, { makeAgent: maker })).toEqual({ ok: true });
    const fromFile = await readCassetteFile(path);
    expect(fromFile.source).toBe('journal');
    expect(fromFile.turns[0]?.request.tools).toBeUndefined();
    // Without tools offered, a changed description goes unseen; a changed result does not.
    const changed = agentMaker({ config: prompt, tools: [lookupTool('Another description.')] });
    expect((await replayCassette(agent.session.journal, { makeAgent: changed })).ok).toBe(true);
    const session = Session.replay(agent.session.journal, agent.config);
    const report = await replayCassette(session, {
      makeAgent: agentMaker({ config: { systemPrompt: 'Other.' } }),
    });
    expect(report.divergence?.kind).toBe('request messages');
  });

  it('reports parallel results that settle in another order (live tools)', async () => {
    const turns = [
      [
        StreamEvent.toolCallComplete({ callId: 'slow', name: 'wait', arguments: { ms: 60 } }),
        StreamEvent.toolCallComplete({ callId: 'fast', name: 'wait', arguments: { ms: 1 } }),
        StreamEvent.messageComplete(undefined, 'tool_calls'),
      ],
      [StreamEvent.textDelta('both done'), StreamEvent.messageComplete(undefined, 'stop')],
    ];
    const { cassette } = await recordRun(turns, { tools: [waitTool()] });
    const results = cassette.journal.filter((entry) => entry.type === 'tool_result');
    expect(results.map((entry) => entry.callId)).toEqual(['fast', 'slow']);
    // Recorded tools settle in the recorded order.
    expect((await replayCassette(cassette, { makeAgent: agentMaker({ tools: [waitTool(() => 0)] }) })).ok).toBe(true);
    const swapped = waitTool((ms) => (ms > 10 ? 1 : 60));
    const report = await replayCassette(cassette, { makeAgent: agentMaker({ tools: [swapped] }), tools: 'live' });
    expect(report.divergence?.kind).toBe('tool result');
    expect(report.divergence?.expected).toMatchObject({ callId: 'fast' });
    expect(report.divergence?.actual).toMatchObject({ callId: 'slow' });
    expect(report.divergence?.step.entryIndex).toBe(cassette.journal.indexOf(results[0] as never));
  });

  it('answers approvals as the recording decided them', async () => {
    const write = defineTool({
      name: 'save',
      description: 'Saves.',
      kind: ToolKind.WRITE,
      schema: z.object({}),
      execute: () => 'saved',
    });
    const config = { permissions: { write: 'ask' as const } };
    const turns = [
      [StreamEvent.toolCallComplete({ callId: 'w1', name: 'save', arguments: {} }), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('ok'), StreamEvent.messageComplete()],
    ];
    const recorder = await (async () => {
      const { recordCassette, ScriptedClient } = await import('../../src/testing/index.js');
      const rec = recordCassette('unused', new ScriptedClient(turns));
      const agent = await agentMaker({ config, tools: [write] })(rec);
      for await (const event of agent.run('save it')) {
        if (event.type === 'tool_approval_request') agent.deny('w1', 'not today');
      }
      return rec.cassette(agent.session);
    })();
    expect(recorder.journal.some((entry) => entry.type === 'approval_decision')).toBe(true);
    const report = await replayCassette(recorder, { makeAgent: agentMaker({ config, tools: [write] }), tools: 'live' });
    expect(report, report.divergence?.message).toEqual({ ok: true });
  });
});
