import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { describe, expect, it, vi } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { Agent, ScriptedClient } from '../../src/index.js';
import { lookupTool } from '../inspector/support/recorded-run.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';

function agentWith(inspect: (event: InspectionEvent) => void) {
  const client = new ScriptedClient([toolTurn('c1', 'lookup', { q: 'alpha' }), textTurn('alpha is a word')]);
  const { agent, config, session } = makeAgent(client, [lookupTool], { cwd: process.cwd() });
  void agent; // a second agent on the same session, with the inspect option
  return { agent: new Agent(config, { session, inspect }) };
}

describe("new Agent(config, { session, inspect }) passes XState's inspect option through", () => {
  it('the observer sees the machine actor, its state changes and the spawned tool actor', async () => {
    const events: InspectionEvent[] = [];
    const { agent } = agentWith((event) => events.push(event));
    await collect(agent.run('look up alpha'));
    const root = events.find((e) => e.type === '@xstate.actor')?.actorRef;
    const values = events
      .filter((e) => e.type === '@xstate.snapshot' && e.actorRef === root)
      .map((e) => (e.type === '@xstate.snapshot' ? (e.snapshot as { value?: unknown }).value : undefined));
    const changes = values.filter((value, i) => value !== values[i - 1]);
    // observing and budgetCheck are left by eventless transitions within the same macrostep.
    expect(changes).toEqual(['awaitingModel', 'executingTools', 'awaitingModel', 'done']);
    const eventTypes = events.flatMap((e) => (e.type === '@xstate.event' && e.actorRef === root ? [e.event.type] : []));
    expect(eventTypes).toContain('TOOL_SETTLED');
    const actorIds = events.flatMap((e) => (e.type === '@xstate.actor' ? [(e.actorRef as { id?: string }).id] : []));
    expect(actorIds).toContain('tool-0');
  });

  it("works with @statelyai/inspect: createInspector's observer hands Stately events to its adapter", async () => {
    const sent: StatelyInspectionEvent[] = [];
    const inspector = createInspector({ send: (event) => sent.push(event) });
    const { agent } = agentWith((event) => inspector.inspect.next?.(event));
    await collect(agent.run('look up alpha'));
    const values = () =>
      sent.flatMap((e) => (e.type === '@xstate.snapshot' ? [(e.snapshot as { value?: unknown }).value] : []));
    // The inspector forwards on an idle callback, after the run.
    await vi.waitFor(() => expect(values()).toContain('done'));
    expect(values()).toContain('executingTools');
    expect(sent.some((e) => e.type === '@xstate.actor')).toBe(true);
    expect(sent.every((e) => typeof e._version === 'string')).toBe(true);
  });
});
