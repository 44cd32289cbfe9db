// SPEC §8: a call that started but has no result is in doubt; §4: old journal versions stay
// readable. A session read from a version 1 journal (no write-ahead `tool_started`) cut while its
// tools ran owes calls that may have run. Its snapshot (`toJSON`) said the current version, so
// `Session.fromJSON(JSON.parse(JSON.stringify(session)))` took the owed non-idempotent call for
// one that never started and ran it again (a second payment).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { JOURNAL_VERSION, parseJournal } from '../../src/journal.js';
import { drain } from '../support/runs.js';

const config = new Config({});
const V1_FILE = fileURLToPath(new URL('../fixtures/journal-v1-cut.jsonl', import.meta.url));

function registry(ran: string[]) {
  const tool = (name: string, kind: ToolKind) =>
    defineTool({
      name,
      description: `${name} tool`,
      kind,
      schema: z.object({}),
      execute: ({ callId }) => {
        ran.push(callId);
        return `${name} done`;
      },
    });
  return new ToolRegistry(config).register(tool('pay', ToolKind.WRITE)).register(tool('look', ToolKind.READ));
}

async function resumed(session: Session) {
  const ran: string[] = [];
  const client = new ScriptedClient([[StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]);
  await drain(new Agent(config, { session, client, tools: registry(ran) }).resume());
  const results = Object.fromEntries(
    session.journal.flatMap((entry: JournalEntry) =>
      entry.type === 'tool_result' ? [[entry.callId, entry.content]] : [],
    ),
  );
  return { ran, results };
}

/** The session through a JSON round trip of its snapshot, as a program saving it to disk does. */
const roundTrip = (session: Session): Session => Session.fromJSON(JSON.parse(JSON.stringify(session)), config);

describe('the snapshot of a session read from a version 1 journal cut while its tools ran', () => {
  it('says version 1: restored, the non-idempotent call is in doubt (interrupted, not run again)', async () => {
    const session = roundTrip(Session.replay(parseJournal(readFileSync(V1_FILE, 'utf8')), config));
    expect(session.toJSON().version).toBe(1);
    const { ran, results } = await resumed(session);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });

  it('a current journal of the same entries still snapshots as the current version and runs the call', async () => {
    const text = readFileSync(V1_FILE, 'utf8').replace('"version":1', `"version":${JOURNAL_VERSION}`);
    const session = roundTrip(Session.replay(parseJournal(text), config));
    expect(session.toJSON().version).toBe(JOURNAL_VERSION);
    const { ran, results } = await resumed(session);
    expect(ran.sort()).toEqual(['l1', 'p1']);
    expect(results.p1).toBe('pay done');
  });
});
