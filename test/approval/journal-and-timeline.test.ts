import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { parseJournal } from '../../src/journal.js';
import { approvalRegistry, runDeciding, textTurn } from './support.js';

/** A committed version-3 journal: c1 denied, c2 ran, c3 undecided and c4 approved when the run was suspended. */
const fixture = () => readFileSync(new URL('../fixtures/journal-v3-approval.jsonl', import.meta.url), 'utf8');

describe('approval in the journal (version 3)', () => {
  it('reads the committed fixture: requests, decisions, the suspended end', () => {
    const entries = parseJournal(fixture());
    expect(entries.filter((e) => e.type === 'approval_request').map((e) => e.callId)).toEqual(['c1', 'c3', 'c4']);
    expect(entries.filter((e) => e.type === 'approval_decision')).toEqual([
      { type: 'approval_decision', callId: 'c1', approved: false, reason: 'not that file' },
      { type: 'approval_decision', callId: 'c4', approved: true },
    ]);
    expect(entries.at(-1)).toMatchObject({ type: 'agent_error', reason: 'suspended' });
  });

  it('a session loaded from it owes c3 and c4, keeps the approval of c4, and resuming asks only for c3', async () => {
    const config = new Config({ permissions: { write: 'ask', shell: 'ask' } });
    const runs: string[] = [];
    const session = Session.replay(parseJournal(fixture()), config, {
      client: new ScriptedClient([textTurn('done')]),
      registry: approvalRegistry(config, runs),
    });
    expect(session.pendingToolCalls().map((call) => call.callId)).toEqual(['c3', 'c4']);
    expect(session.approvalDecision('c4')).toEqual({ approved: true });
    const agent = new Agent(config, { session });
    const asked: string[] = [];
    await runDeciding(agent.resume(), (event) => {
      asked.push(event.data.callId);
      agent.deny(event.data.callId);
    });
    expect(asked).toEqual(['c3']);
    expect(runs).toEqual(['change']);
  });

  it('shows approval requests and decisions on the inspector timeline', () => {
    const steps = InspectorFeed.fromJournal(parseJournal(fixture()), { title: 'run' }).snapshot().steps;
    const approvals = steps.filter((step) => step.kind === 'approval');
    expect(approvals.map((step) => step.title)).toEqual([
      'approval asked: change',
      'approval asked: run',
      'approval asked: change',
      'denied: change',
      'approved: change',
    ]);
    expect(approvals[3]?.text).toBe('not that file');
    expect(steps.some((step) => step.kind === 'transition' && step.state === 'awaitingApproval')).toBe(true);
  });

  it('refuses a malformed approval entry, naming it', () => {
    const text = '{"format":"agent-harness-journal","version":3}\n{"type":"approval_decision","callId":"c1"}\n';
    expect(() => parseJournal(text)).toThrowError(/'approved' must be a boolean/);
  });
});
