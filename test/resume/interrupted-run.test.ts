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
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain, use, workspace } from '../support/runs.js';

/** A registry whose `step` tool logs each run and can "crash the process" by snapshotting the journal. */
function stepRegistry(config: Config, runs: number[], onRun?: (n: number) => void) {
  const registry = new ToolRegistry(config);
  registry.register(
    defineTool({
      name: 'step',
      description: 'Does one step.',
      kind: ToolKind.WRITE,
      schema: z.object({ n: z.number().int() }),
      execute: ({ params }) => {
        runs.push(params.n);
        onRun?.(params.n);
        return `did ${params.n}`;
      },
    }),
  );
  return registry;
}

const script = () => [
  [
    StreamEvent.toolCallComplete({ callId: 's1', name: 'step', arguments: { n: 1 } }),
    StreamEvent.messageComplete(use(4, 1)),
  ],
  [
    StreamEvent.toolCallComplete({ callId: 's2', name: 'step', arguments: { n: 2 } }),
    StreamEvent.messageComplete(use(6, 1)),
  ],
  [StreamEvent.textDelta('all done'), StreamEvent.messageComplete(use(8, 2))],
];

describe('contract §8 resume an interrupted run', () => {
  it('after a crash during turn 2, resume never repeats recorded work and answers the write in doubt as interrupted', async () => {
    const config = new Config({ cwd: workspace() });
    const firstRuns: number[] = [];
    let crashed: JournalEntry[] = [];
    const session = new Session(config, {
      client: new ScriptedClient(script()),
      registry: stepRegistry(config, firstRuns, (n) => {
        if (n === 2) crashed = structuredClone([...session.journal]);
      }),
    });
    await drain(new Agent(config, { session }).run('do the steps'));
    expect(crashed.length).toBeGreaterThan(0);

    const resumedRuns: number[] = [];
    const client = new ScriptedClient([script()[2] ?? []]);
    const revived = Session.replay(JSON.parse(JSON.stringify(crashed)) as unknown[], config, {
      client,
      registry: stepRegistry(config, resumedRuns),
    });
    expect(revived.turnCount).toBe(2);
    const events = await drain(new Agent(config, { session: revived }).resume());
    expect(resumedRuns).toEqual([]); // step 2 had started (tool_started) and is not idempotent
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'all done' } });
    expect(client.requests).toHaveLength(1);
    const roles = client.requests[0]?.messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(client.requests[0]?.messages.at(-1)).toMatchObject({ role: 'tool', callId: 's2' });
    expect(client.requests[0]?.messages.at(-1)?.content).toMatch(
      /^Error: interrupted: .*may or may not have taken effect/,
    );
  });

  it('replay alone needs no model and no tools to rebuild states, messages and usage', async () => {
    const config = new Config({ cwd: workspace() });
    const runs: number[] = [];
    const session = new Session(config, { client: new ScriptedClient(script()), registry: stepRegistry(config, runs) });
    await drain(new Agent(config, { session }).run('do the steps'));
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)) as unknown[], config);
    expect(runs).toEqual([1, 2]);
    expect(replayed.messages).toEqual(session.messages);
    expect(replayed.totalUsage).toEqual(use(18, 4));
    expect(replayed.turnCount).toBe(3);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    const states = replayed.journal.filter((e) => e.type === 'transition').map((e) => e.to);
    expect(states).toEqual([
      'executingTools',
      'observing',
      'budgetCheck',
      'awaitingModel',
      'executingTools',
      'observing',
      'budgetCheck',
      'awaitingModel',
      'done',
    ]);
  });

  it('a new run() after an interrupted one first answers the calls left open, keeping the N-results invariant', async () => {
    const config = new Config({ cwd: workspace() });
    const interrupted = new Session(config);
    interrupted.addUserMessage('do two steps');
    interrupted.startTurn();
    interrupted.addAssistantMessage('', [
      { callId: 'a', name: 'step', arguments: { n: 1 } },
      { callId: 'b', name: 'step', arguments: { n: 2 } },
    ]);
    interrupted.addToolResult({ callId: 'a', content: 'did 1' });
    const client = new ScriptedClient([[StreamEvent.textDelta('fresh start'), StreamEvent.messageComplete()]]);
    const runs: number[] = [];
    const revived = Session.replay(interrupted.journal, config, { client, registry: stepRegistry(config, runs) });
    await drain(new Agent(config, { session: revived }).run('something else'));
    const sent = client.requests[0]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(sent[3]).toMatchObject({ role: 'tool', callId: 'b' });
    expect(String(sent[3]?.content).startsWith('Error: ')).toBe(true);
    expect(runs).toEqual([]);
  });
});
