import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  Config,
  EventBus,
  type JournalEntry,
  Session,
  type StreamRecord,
  ToolRegistry,
} from '../../src/index.js';
import type { LogRecord } from '../../src/journal.js';
import {
  budgetArbitrary,
  byDepth,
  formatScript,
  propertyRuns,
  ScriptedClient,
  scriptArbitrary,
  scriptedTurns,
} from '../../src/testing/index.js';
import { CHAOS_TOOL_ARBITRARIES, chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

describe('one log: the stream carries the journal', () => {
  it(
    'for random scripts with aborts and budget stops, the stream filtered to journal records equals the journal, and a reader joining mid-run sees it whole',
    async () => {
      const cwd = tempWorkspace();
      for (const settings of propertyRuns({ default: 60, deep: 1000 })) {
        await fc.assert(
          fc.asyncProperty(
            scriptArbitrary({ tools: CHAOS_TOOL_ARBITRARIES, maxTurns: 4, maxCallsPerTurn: 3 }),
            budgetArbitrary({ maxWallClockMs: true }),
            fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
            fc.integer({ min: 1, max: 10 }),
            async (script, budget, abortAfter, joinAt) => {
              const config = new Config({ cwd, budget, toolTimeoutMs: 25 });
              const registry = new ToolRegistry(config);
              for (const tool of chaosTools()) registry.register(tool);
              const session = new Session(config, { client: new ScriptedClient(scriptedTurns(script)), registry });
              const agent = new Agent(config, { session, events: new EventBus({ onSubscriberError: () => {} }) });
              const before = session.journal.length;
              const records: StreamRecord[] = [];
              const subscription = agent.stream$.subscribe((record) => records.push(record));
              const late: LogRecord[] = [];
              let lateSubscription: { unsubscribe(): void } | undefined;
              let seen = 0;
              for await (const event of agent.run('go')) {
                seen++;
                if (seen === joinAt) lateSubscription = session.follow(0).subscribe((record) => late.push(record));
                if (seen === abortAfter && event.type !== 'agent_end' && event.type !== 'agent_error')
                  agent.abort('test');
              }
              subscription.unsubscribe();
              lateSubscription?.unsubscribe();
              const journal = session.journal;
              const context = `${formatScript(script)}\nbudget ${JSON.stringify(budget)} abort ${abortAfter} join ${joinAt}`;
              const logged = records.filter((record) => record.journalIndex !== undefined);
              expect(
                logged.map((record) => record.entry),
                context,
              ).toEqual(journal.slice(before) as JournalEntry[]);
              expect(
                logged.map((record) => record.journalIndex),
                context,
              ).toEqual(journal.slice(before).map((_, i) => before + i));
              if (lateSubscription !== undefined) {
                expect(late.map((record) => record.journalIndex)).toEqual(journal.map((_, i) => i));
                expect(late.map((record) => record.entry)).toEqual(journal);
              }
            },
          ),
          settings,
        );
      }
    },
    byDepth({ default: 30_000, deep: 600_000 }),
  );
});
