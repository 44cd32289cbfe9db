import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, type ModelClient, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { formatCassetteReport, recordCassette, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const City = z.object({ city: z.string(), celsius: z.number().optional() });

/** The user's code: a plain agent, no tools. */
function agentMaker() {
  const cwd = tempWorkspace();
  const make = (client: ModelClient): Agent => {
    const config = new Config({ cwd });
    return new Agent(config, { client, tools: new ToolRegistry(config), session: new Session(config) });
  };
  return { cwd, make };
}

/** Records a structured run whose first answer fails the schema and whose second passes. */
async function recordStructuredRun(outputRetries?: number) {
  const { cwd, make } = agentMaker();
  const path = join(cwd, 'weather.cassette.jsonl');
  const recorder = recordCassette(
    path,
    new ScriptedClient([textTurn('{"city": 5}'), textTurn('{"city": 6}'), textTurn('{"city": "Lyon"}')]),
  );
  const agent = make(recorder);
  const events = await collect(
    agent.run('Weather in Lyon?', { output: City, ...(outputRetries === undefined ? {} : { outputRetries }) }),
  );
  await recorder.save(agent.session);
  return { path, make, agent, end: events.at(-1) };
}

describe('SPEC §17: an unchanged run that asked for structured output passes its recording', () => {
  it('passes from a recorded cassette file, its schema taken from the recorded requests', async () => {
    const { path, make, end } = await recordStructuredRun();
    expect(end).toMatchObject({ type: 'agent_end', data: { output: { city: 'Lyon' } } });
    const report = await replayCassette(path, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('passes a run that ended output_invalid with its own outputRetries', async () => {
    const { path, make, end } = await recordStructuredRun(1);
    expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'output_invalid' } });
    const report = await replayCassette(path, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('passes from a journal when given the schema, which a journal does not keep', async () => {
    const { make, agent } = await recordStructuredRun();
    const report = await replayCassette(agent.session, { makeAgent: make, output: City });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
  });

  it('refuses to replay a structured run from a journal without the schema, naming the option', async () => {
    const { make, agent } = await recordStructuredRun();
    await expect(replayCassette(agent.session, { makeAgent: make })).rejects.toMatchObject({
      reason: 'invalid_argument',
      message: expect.stringContaining('output'),
    });
  });

  it('reports a changed schema: the answer the recording accepted is now refused', async () => {
    const { path, make } = await recordStructuredRun();
    const Stricter = z.object({ city: z.string(), celsius: z.number() });
    const report = await replayCassette(path, { makeAgent: make, output: Stricter });
    expect(report.ok).toBe(false);
    expect(report.divergence?.kind).toBe('request messages');
  });
});
