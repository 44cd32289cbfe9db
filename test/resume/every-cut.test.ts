// contract §8 as a property: cut a finished run's journal at every entry after the user message (a
// crash at that point), replay it and resume. Every resumed run must end with a final answer,
// run each call still owed a result exactly once, never re-run a recorded one, leave the
// recorded prefix untouched, and keep the loop's invariants.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  ScriptedClient,
  Session,
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { callChunk, doneChunk, drain, textChunk, use, workspace } from '../support/runs.js';

/** A registry with one tool, `t`, that records the call ids it ran. */
function countingRegistry(config: Config, kind: ToolKind) {
  const ran: string[] = [];
  const tool = defineTool({
    name: 't',
    description: 'Records its call.',
    kind,
    schema: z.object({ v: z.string() }),
    execute: async ({ params, callId }) => {
      ran.push(callId);
      return `t:${params.v}`;
    },
  });
  return { registry: new ToolRegistry(config).register(tool), ran };
}

async function finishedJournal(kind: ToolKind): Promise<readonly JournalEntry[]> {
  const config = new Config({ cwd: workspace(), maxTurns: 6 });
  const client = new ScriptedClient([
    [textChunk('first'), callChunk('a1', 't', { v: '1' }), callChunk('a2', 't', { v: '2' }), doneChunk(use(1, 1))],
    [callChunk('b1', 't', { v: '3' }), doneChunk(use(1, 1))],
    [textChunk('final'), doneChunk(use(1, 1))],
  ]);
  const session = new Session(config, { client, registry: countingRegistry(config, kind).registry });
  await drain(new Agent(config, { session }).run('task'));
  return structuredClone(session.journal);
}

/** The calls the prefix asked for without a recorded result, and those it recorded. */
function owedAndAnswered(prefix: readonly JournalEntry[]) {
  const asked: string[] = [];
  const answered = new Set<string>();
  const started = new Set<string>();
  for (const entry of prefix) {
    if (entry.type === 'assistant_message') asked.push(...(entry.toolCalls ?? []).map((call) => call.callId));
    if (entry.type === 'tool_result') answered.add(entry.callId);
    if (entry.type === 'tool_started') started.add(entry.callId);
  }
  return { owed: asked.filter((id) => !answered.has(id)), answered, started };
}

async function resumeFrom(prefix: readonly JournalEntry[], kind: ToolKind): Promise<string[]> {
  const config = new Config({ cwd: workspace(), maxTurns: 6 });
  const { registry, ran } = countingRegistry(config, kind);
  const client = new ScriptedClient([[textChunk('resumed'), doneChunk(use(1, 1))]]);
  const session = Session.replay(prefix, config, { client, registry });
  const events = await drain(new Agent(config, { session }).resume());
  const { owed: allOwed, answered, started } = owedAndAnswered(prefix);
  // A call in doubt (started, no result) runs again only when its tool is idempotent (read).
  const owed = kind === ToolKind.READ ? allOwed : allOwed.filter((id) => !started.has(id));
  const problems: string[] = [];
  if (events.at(-1)?.type !== 'agent_end') problems.push(`ended with ${JSON.stringify(events.at(-1))}`);
  if ([...ran].sort().join() !== [...owed].sort().join()) problems.push(`ran [${ran}] but owed [${owed}]`);
  if (ran.some((id) => answered.has(id))) problems.push('re-ran a recorded call');
  if (stableJson(session.journal.slice(0, prefix.length)) !== stableJson(prefix)) problems.push('rewrote the prefix');
  const violations = checkLoopInvariants(session.journal, { config });
  problems.push(...violations.map((violation) => `${violation.rule}: ${violation.message}`));
  return problems;
}

describe('contract §8: resume after a crash at any point of a run', () => {
  for (const kind of [ToolKind.READ, ToolKind.WRITE]) {
    it(`resumes from every cut of the journal (${kind} tools)`, async () => {
      const journal = await finishedJournal(kind);
      const firstCut = journal.findIndex((entry) => entry.type === 'user_message') + 1;
      const failures: string[] = [];
      for (let cut = firstCut; cut < journal.length; cut++) {
        const prefix = journal.slice(0, cut);
        const problems = await resumeFrom(prefix, kind);
        if (problems.length > 0) failures.push(`cut after entry ${cut - 1} (${prefix.at(-1)?.type}): ${problems}`);
      }
      expect(journal.length - firstCut).toBeGreaterThan(10);
      expect(failures).toEqual([]);
    });
  }
});
