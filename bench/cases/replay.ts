import { type JournalEntry, Session } from '../../src/index.js';
import { parseJournal, serializeJournal } from '../../src/journal.js';
import { newAgent, runAgent, sharedSetup } from '../harness-contender.js';
import { unitsPerSecond } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

/** A real journal of at least `entries` entries: one long harness run, cut to whole turns by the run's end. */
async function recordJournal(entries: number): Promise<{ journal: readonly JournalEntry[]; turns: number }> {
  const probe = newAgent(sharedSetup(10));
  await runAgent(probe);
  const perTurn = probe.session.journal.length / probe.session.turnCount;
  const toolTurns = Math.ceil(entries / perTurn);
  const agent = newAgent(sharedSetup(toolTurns));
  await runAgent(agent);
  return { journal: agent.session.journal, turns: agent.session.turnCount };
}

/** The floor: a fold over plain entries into a message list, with no checks. */
function bareReplay(journal: readonly JournalEntry[]): number {
  const messages: unknown[] = [];
  let turns = 0;
  for (const entry of journal) {
    if (entry.type === 'turn_start') turns++;
    else if (entry.type === 'user_message') messages.push({ role: 'user', content: entry.content });
    else if (entry.type === 'assistant_message')
      messages.push({ role: 'assistant', content: entry.content, toolCalls: entry.toolCalls });
    else if (entry.type === 'tool_result')
      messages.push({ role: 'tool', callId: entry.callId, content: entry.content });
  }
  return messages.length + turns > 0 ? journal.length : 0;
}

/** Case 5: `Session.replay` throughput over a real 100k-entry journal, and journal bytes per turn. */
export async function replayCase(settings: BenchSettings): Promise<ResultRow[]> {
  const { journal, turns } = await recordJournal(settings.journalEntries);
  const session = newAgent(sharedSetup(10)).session;
  const { config } = session;
  const text = serializeJournal(journal);
  const plan = { warmup: 1, samples: settings.samples, unitsPerSample: journal.length };
  const replay = summarise(await unitsPerSecond(() => Session.replay(journal, config).journal.length, plan));
  const parse = summarise(await unitsPerSecond(() => Session.replay(parseJournal(text), config).journal.length, plan));
  const bare = summarise(await unitsPerSecond(() => bareReplay(journal), plan));
  const label = `5 replay ${journal.length.toLocaleString('en-US')} entries`;
  const bytes = Buffer.byteLength(text, 'utf8') / turns;
  console.error(`  ${label}: ${replay.median.toFixed(0)} entries/s`);
  return [
    {
      case: label,
      impl: 'agent-harness',
      metric: 'entries/s (Session.replay)',
      summary: replay,
      target: '> 1,000,000',
      met: replay.median > 1_000_000,
    },
    { case: label, impl: 'agent-harness', metric: 'entries/s (parseJournal + replay, from JSONL)', summary: parse },
    { case: label, impl: 'bare loop', metric: 'entries/s (unchecked fold)', summary: bare },
    {
      case: '5 journal size',
      impl: 'agent-harness',
      metric: 'JSONL bytes/turn',
      summary: summarise([bytes]),
      note: `${(journal.length / turns).toFixed(1)} entries/turn`,
    },
  ];
}
