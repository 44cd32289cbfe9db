import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, Config, Session, ToolRegistry } from '../../src/index.js';
import {
  assertLoopInvariants,
  byDepth,
  formatScript,
  propertyRuns,
  runScript,
  ScriptedClient,
  scriptArbitrary,
  scriptedTurns,
} from '../../src/testing/index.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

const scripts = scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, maxTurns: 3 });

async function drain(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Call ids that the journal leaves without a result. */
function unanswered(journal: Session['journal']): string[] {
  const owed: string[] = [];
  for (const entry of journal) {
    if (entry.type === 'assistant_message')
      owed.splice(0, owed.length, ...(entry.toolCalls ?? []).map((c) => c.callId));
    if (entry.type === 'tool_result') owed.splice(owed.indexOf(entry.callId), 1);
  }
  return owed;
}

describe('resuming an interrupted run', () => {
  it(
    'keeps the invariants over the whole journal and re-runs only the calls without a result',
    async () => {
      const cwd = tempWorkspace();
      for (const settings of propertyRuns({ default: 60, deep: 800 })) {
        await fc.assert(
          fc.asyncProperty(scripts, scripts, fc.nat(), async (before, after, at) => {
            const first = await runScript(before, {
              tools: chaosTools(),
              config: { cwd, maxTurns: 4, toolTimeoutMs: 20 },
            });
            // Interrupt the run just before an entry: as if the process died there.
            const cut = 1 + (at % first.journal.length);
            const prefix = first.journal.slice(0, cut);
            if (prefix.some((entry) => entry.type === 'agent_end')) return;
            const config = new Config({ cwd, maxTurns: 4, toolTimeoutMs: 20 });
            const registry = new ToolRegistry(config);
            for (const tool of chaosTools()) registry.register(tool);
            const client = new ScriptedClient(scriptedTurns(after));
            const session = Session.replay(prefix, config, { client, registry });
            const owed = unanswered(session.journal);
            const events = await drain(new Agent(config, { session }).resume());
            const context = `before: ${formatScript(before)}\ninterrupted before entry ${cut}\nafter: ${formatScript(after)}`;
            // No maxTurns here: a resume() with no call left to run records no marker, so when the
            // interruption fell right after a move into awaitingModel the journal cannot tell the two
            // runs apart. Each run's own requests are counted below instead.
            assertLoopInvariants(session.journal, { events, context });
            const requests = session.journal.slice(prefix.length).filter((entry) => entry.type === 'turn_start');
            expect(requests.length).toBeLessThanOrEqual(4);
            // Before its first model request the resumed run answers exactly the calls still owed.
            const resumed = session.journal.slice(prefix.length);
            const firstRequest = resumed.findIndex((entry) => entry.type === 'turn_start');
            const answered = resumed
              .slice(0, firstRequest < 0 ? undefined : firstRequest)
              .flatMap((entry) => (entry.type === 'tool_result' ? [entry.callId] : []));
            expect(answered).toEqual(owed);
          }),
          settings,
        );
      }
    },
    byDepth({ default: 20_000, deep: 600_000 }),
  );
});
