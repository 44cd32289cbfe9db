import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { toolActorId } from '../../src/machines/agent-machine.js';
import { drain, workspace } from '../support/runs.js';

describe('contract §5/§9 tool calls as spawned child actors, seen through the inspect hook', () => {
  it('each tool call is an actor spawned by the agent machine, reported to the inspect observer', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'noop',
        description: 'Nothing.',
        kind: ToolKind.READ,
        schema: z.object({}),
        execute: () => 'ok',
      }),
    );
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'a', name: 'noop', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'b', name: 'noop', arguments: {} }),
        StreamEvent.messageComplete(),
      ],
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete()],
    ]);
    const actors: string[] = [];
    const agent = new Agent(config, {
      session: new Session(config, { client, registry }),
      inspect: (event) => {
        if (event.type === '@xstate.actor') actors.push((event.actorRef as unknown as { id: string }).id);
      },
    });
    const events = await drain(agent.run('go'));
    expect(events.at(-1)?.type).toBe('agent_end');
    // the root machine and one spawned actor per tool call (the model request is not an actor)
    expect(actors.filter((id) => id === toolActorId(0) || id === toolActorId(1))).toHaveLength(2);
    expect(actors).toHaveLength(1 + 2);
  });
});
