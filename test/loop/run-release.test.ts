import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { z } from 'zod';
import { boundDeps } from '../../src/agent/run-handle.js';
import { Agent, Config, defineTool, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';

function agentWithTool(systems: Set<object>, answers: () => void) {
  const inspect = (event: InspectionEvent) => systems.add((event.actorRef as unknown as { system: object }).system);
  const config = new Config({ maxTurns: 4 });
  const registry = new ToolRegistry(config).register(
    defineTool({
      name: 'probe',
      description: 'looks at the run',
      kind: 'read',
      schema: z.object({}),
      execute: () => {
        answers();
        return 'ok';
      },
    }),
  );
  const client = new ScriptedClient([
    [
      { type: 'tool_call_complete', toolCall: { callId: 'c1', name: 'probe', arguments: {} } },
      { type: 'message_complete' },
    ],
    [{ type: 'text_delta', textDelta: 'done' }, { type: 'message_complete' }],
  ]);
  return new Agent(config, { session: new Session(config, { client, registry }), inspect });
}

describe('a run and its actor system', () => {
  it('binds the system to the agent while the run goes on, and lets go of it once the run has ended', async () => {
    const systems = new Set<object>();
    let boundDuringTool: boolean | undefined;
    const agent = agentWithTool(systems, () => {
      boundDuringTool = [...systems].every((system) => boundDeps(system) !== undefined);
    });
    const types: string[] = [];
    for await (const event of agent.run('go')) types.push(event.type);
    expect(types.at(-1)).toBe('agent_end');
    expect(systems.size).toBe(1);
    expect(boundDuringTool).toBe(true);
    const [system] = [...systems];
    // A finished run's system holds nothing of the agent any more (docs/performance.md: bound
    // for ever, each finished run's session and bus outlived young collections).
    expect(boundDeps(system as object)).toBeUndefined();
  });

  it('lets go of it when the reader stops early too', async () => {
    const systems = new Set<object>();
    const agent = agentWithTool(systems, () => {});
    for await (const event of agent.run('go')) if (event.type === 'tool_call_start') break;
    expect(systems.size).toBe(1);
    expect(boundDeps([...systems][0] as object)).toBeUndefined();
    expect(agent.session.journal.at(-1)?.type).toBe('agent_error');
  });
});
