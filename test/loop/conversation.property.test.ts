import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, Config, Session, ToolRegistry } from '../../src/index.js';
import {
  assertLoopInvariants,
  byDepth,
  formatScript,
  propertyRuns,
  ScriptedClient,
  scriptArbitrary,
  scriptedTurns,
} from '../../src/testing/index.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

async function drain(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

describe('a conversation of several runs in one session', () => {
  it(
    'keeps the invariants over the whole journal, run after run',
    async () => {
      const cwd = tempWorkspace();
      const scripts = fc.array(scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, maxTurns: 3 }), {
        minLength: 2,
        maxLength: 3,
      });
      for (const settings of propertyRuns({ default: 40, deep: 600 })) {
        await fc.assert(
          fc.asyncProperty(scripts, fc.integer({ min: 1, max: 4 }), async (parts, maxTurns) => {
            const config = new Config({ cwd, maxTurns, toolTimeoutMs: 20 });
            const registry = new ToolRegistry(config);
            for (const tool of chaosTools()) registry.register(tool);
            const client = new ScriptedClient(scriptedTurns(parts.flat()));
            const session = new Session(config, { client, registry });
            const agent = new Agent(config, { session });
            const context = parts.map((part, i) => `run ${i + 1}: ${formatScript(part)}`).join('\n');
            for (const [i] of parts.entries()) {
              const events = await drain(agent.run(`message ${i + 1}`));
              assertLoopInvariants(session.journal, { events, maxTurns, context });
            }
            const users = session.messages.filter((m) => m.role === 'user' && m.author === undefined);
            expect(users.map((m) => m.content)).toEqual(parts.map((_, i) => `message ${i + 1}`));
          }),
          settings,
        );
      }
    },
    byDepth({ default: 20_000, deep: 600_000 }),
  );
});
