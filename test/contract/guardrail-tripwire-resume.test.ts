import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Guardrail, GuardrailStage } from '../../src/guardrails.js';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  ScriptedClient,
  Session,
  ToolRegistry,
} from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** Rejects when `promise` does not settle in `ms`: a resume that waits forever fails, never hangs. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A run whose `stage` guardrail trips (or throws), with counters of what a resume of it does. */
function tripping(stage: GuardrailStage, outcome: 'tripwire' | 'error') {
  const counts = { checks: 0, runs: 0 };
  const guardrail: Guardrail = {
    name: 'stop-it',
    check: () => {
      counts.checks++;
      if (outcome === 'error') throw new Error('judge down');
      return { tripwire: 'not allowed' };
    },
  };
  const config = new Config({ cwd: tempWorkspace(), guardrails: { [stage]: [guardrail] } });
  const registry = () =>
    new ToolRegistry(config).register(
      defineTool({
        name: 'fetch',
        description: 'Fetch a page.',
        kind: 'read',
        schema: z.object({}),
        execute: () => {
          counts.runs++;
          return 'page text';
        },
      }),
    );
  const script = () => [toolTurn('c1', 'fetch', {}), textTurn('an answer'), textTurn('another answer')];
  return { counts, config, registry, script };
}

const stops = (entry: JournalEntry) =>
  entry.type === 'guardrail' && (entry.outcome === 'tripwire' || entry.outcome === 'error');

describe('SPEC §16: a journaled tripwire is final; resume never runs a guardrail again', () => {
  for (const stage of ['input', 'toolResult', 'output'] as const) {
    for (const outcome of ['tripwire', 'error'] as const) {
      it(`a run that crashed after its ${stage} ${outcome} verdict ends with reason guardrail on resume, asking nothing`, async () => {
        const { counts, config, registry, script } = tripping(stage, outcome);
        const session = new Session(config, { client: new ScriptedClient(script()), registry: registry() });
        const live = await within(collect(new Agent(config, { session }).run('go')));
        const end = live.at(-1);
        expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
        const journal = session.journal;
        const verdict = journal.findIndex(stops);
        expect(verdict).toBeGreaterThanOrEqual(0);
        // Crash anywhere after the verdict was durable and before the run's end was.
        for (let at = verdict + 1; at < journal.length; at++) {
          counts.checks = 0;
          counts.runs = 0;
          const client = new ScriptedClient(script());
          const crashed = Session.replay(journal.slice(0, at), config, { client, registry: registry() });
          const events = await within(collect(new Agent(config, { session: crashed }).resume()));
          const where = `resumed after entry ${at - 1} (${journal[at - 1]?.type})`;
          expect(events.at(-1), where).toEqual(end);
          expect(client.calls, where).toBe(0);
          expect(counts, where).toEqual({ checks: 0, runs: 0 });
          expect(crashed.journal.filter(stops), where).toHaveLength(1);
          expect(checkLoopInvariants(crashed.journal, { config }), where).toEqual([]);
        }
      });
    }
  }

  it('the same holds for a fork taken between the tripwire and the end', async () => {
    const { counts, config, registry, script } = tripping('input', 'tripwire');
    const session = new Session(config, { client: new ScriptedClient(script()), registry: registry() });
    await within(collect(new Agent(config, { session }).run('go')));
    const at = session.journal.findIndex(stops) + 1;
    counts.checks = 0;
    const client = new ScriptedClient(script());
    const fork = await session.fork({ at });
    const events = await within(collect(new Agent(config, { session: fork, client, tools: registry() }).resume()));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
    expect(client.calls).toBe(0);
    expect(counts).toEqual({ checks: 0, runs: 0 });
  });
});
