import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { Config, defineTool, HarnessError, ScriptedClient, ToolKind, ToolRegistry } from '../../src/index.js';
import { collect, makeAgent, textTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A real zod 3 schema, typed as what a user's code would pass. */
const zod3Object = z3.object({ city: z3.string() }) as unknown as z.ZodType;

describe('zod 3 schemas (agent-harness needs zod 4, a peer dependency)', () => {
  it('are refused when a tool is registered, with invalid_config naming the tool and the fix', () => {
    const weather = defineTool({
      name: 'weather',
      description: 'The weather in a city.',
      kind: ToolKind.READ,
      schema: zod3Object,
      execute: () => 'sunny',
    });
    const registry = new ToolRegistry(new Config({ cwd: tempWorkspace() }));
    let thrown: unknown;
    try {
      registry.register(weather);
    } catch (error) {
      thrown = error;
    }
    expect(HarnessError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      reason: 'invalid_config',
      message:
        "tool 'weather' schema is a zod 3 schema; agent-harness needs zod 4: install zod@^4 and import { z } from 'zod' (not 'zod/v3')",
    });
    expect(registry.has('weather')).toBe(false);
  });

  it('as run() option output end the run with agent_error output_invalid before any request, never a throw', async () => {
    const client = new ScriptedClient([textTurn('{"city":"Lyon"}')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('weather?', { output: zod3Object }));
    expect(events.map((event) => event.type)).toEqual(['agent_start', 'agent_error']);
    expect(events.at(-1)?.data).toEqual({
      reason: 'output_invalid',
      message:
        "run() option output is a zod 3 schema; agent-harness needs zod 4: install zod@^4 and import { z } from 'zod' (not 'zod/v3')",
    });
    expect(client.requests).toHaveLength(0);
    // The agent is free again: a next run with no output works.
    const next = await collect(agent.run('weather?'));
    expect(next.at(-1)).toMatchObject({ type: 'agent_end', data: { response: '{"city":"Lyon"}' } });
  });
});
