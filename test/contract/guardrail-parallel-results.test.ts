import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Guardrail } from '../../src/guardrails.js';
import { Agent, Config, defineTool, ScriptedClient, Session, StreamEvent, ToolRegistry } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** Rejects when `promise` does not settle in `ms`. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two read tools the model calls in one turn (they run together): `a` answers at once, `b` after 20 ms. */
function parallelRun(guardrail: Guardrail) {
  const config = new Config({ cwd: tempWorkspace(), guardrails: { toolResult: [guardrail] } });
  const tool = (name: string, ms: number) =>
    defineTool({
      name,
      description: name,
      kind: 'read',
      schema: z.object({}),
      execute: async () => {
        await sleep(ms);
        return `${name}: sk-secret`;
      },
    });
  const client = new ScriptedClient([
    [
      StreamEvent.toolCallComplete({ callId: 'c1', name: 'a', arguments: {} }),
      StreamEvent.toolCallComplete({ callId: 'c2', name: 'b', arguments: {} }),
      StreamEvent.messageComplete(usage(3, 2)),
    ],
    textTurn('done'),
  ]);
  const session = new Session(config, {
    client,
    registry: new ToolRegistry(config).register(tool('a', 0), tool('b', 20)),
  });
  const agent = new Agent(config, { session });
  // Stream order of verdicts (journal records) and reports, as a reader sees them.
  const seen: string[] = [];
  agent.stream$.subscribe(({ entry }) => {
    const { type, callId, data } = entry as { type: string; callId?: string; data?: { callId?: string } };
    if (type === 'guardrail') seen.push(`verdict ${callId}`);
    if (type === 'tool_result') seen.push(`result ${callId}`);
    if (type === 'tool_call_complete') seen.push(`reported ${data?.callId}`);
  });
  return { agent, session, client, config, seen };
}

describe('SPEC §16: no tool result reaches a request before its guardrails have passed (parallel calls)', () => {
  it('a slow check on the first result holds it, and the next request sees each result as replaced', async () => {
    const slowOnA: Guardrail = {
      name: 'redact',
      check: async (value) => {
        if (value.startsWith('a')) await sleep(80);
        return { replace: value.replace('sk-secret', '[redacted]') };
      },
    };
    const { agent, session, client, config, seen } = parallelRun(slowOnA);
    const events = await within(collect(agent.run('go')));
    expect(events.at(-1)?.type).toBe('agent_end');
    for (const id of ['c1', 'c2']) {
      expect(seen.indexOf(`verdict ${id}`)).toBeGreaterThanOrEqual(0);
      expect(seen.indexOf(`verdict ${id}`)).toBeLessThan(seen.indexOf(`result ${id}`));
      expect(seen.indexOf(`result ${id}`)).toBeLessThan(seen.indexOf(`reported ${id}`));
    }
    expect(client.requests[1]?.messages.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', callId: 'c1', content: 'a: [redacted]' },
      { role: 'tool', callId: 'c2', content: 'b: [redacted]' },
    ]);
    expect(JSON.stringify(session.journal)).not.toContain('sk-secret');
    expect(checkLoopInvariants(session.journal, { config })).toEqual([]);
  });

  it('a tripwire on one result while the other is still being checked: nothing unchecked is journaled and no request follows', async () => {
    const tripOnB: Guardrail = {
      name: 'no-b',
      check: async (value, { signal }) => {
        if (value.startsWith('b')) return { tripwire: 'b is not allowed' };
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return 'pass';
      },
    };
    const { agent, session, client, config } = parallelRun(tripOnB);
    const events = await within(collect(agent.run('go')));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
    expect(client.calls).toBe(1);
    expect(JSON.stringify(session.journal)).not.toContain('sk-secret');
    const results = session.journal.filter((entry) => entry.type === 'tool_result');
    expect(results.map((entry) => entry.callId).sort()).toEqual(['c1', 'c2']);
    expect(checkLoopInvariants(session.journal, { config })).toEqual([]);
  });
});
