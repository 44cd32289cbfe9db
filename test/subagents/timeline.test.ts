import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../src/diagram/machine-graph.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { agentMachine, type JournalEntry, openStore } from '../../src/index.js';
import { TimelineBuilder } from '../../src/inspector/timeline-builder.js';
import type { TimelineStep } from '../../src/inspector.js';
import { readSessionTree } from '../../src/subagents.js';
import { delegateInto } from './support/delegation.js';

const calls = (steps: readonly TimelineStep[]) => steps.filter((step) => step.kind === 'tool_call');

describe('the inspector timeline of nested runs', () => {
  it("shows each agent tool call with its child's session and the child's own timeline, three levels deep", async () => {
    const store = await openStore('memory:');
    await delegateInto(store);
    const tree = await readSessionTree(store, 'lead');
    expect([...tree.journals.keys()]).toEqual([
      'lead',
      'lead.t1.r1',
      'lead.t2.r2',
      'lead.t1.r1.t1.a1',
      'lead.t2.r2.t1.a1',
    ]);
    const builder = new TimelineBuilder({ childJournal: (id) => tree.journals.get(id) });
    for (const entry of tree.journals.get('lead') ?? []) builder.addEntry(entry);

    const [first, second] = calls(builder.steps);
    expect(first?.tool).toMatchObject({ name: 'researcher', status: 'ok', childSessionId: 'lead.t1.r1' });
    expect(second?.tool?.childSessionId).toBe('lead.t2.r2');
    const researcher = first?.tool?.children ?? [];
    expect(researcher.find((step) => step.kind === 'user')?.text).toBe('research item 1');
    expect(researcher.at(-1)).toMatchObject({ kind: 'answer', text: 'research 1: analysis 1: effect 1 done' });
    const [analystCall] = calls(researcher);
    expect(analystCall?.tool).toMatchObject({ name: 'analyst', childSessionId: 'lead.t1.r1.t1.a1' });
    const analyst = analystCall?.tool?.children ?? [];
    expect(calls(analyst).map((step) => [step.tool?.name, step.tool?.result])).toEqual([['effect', 'effect 1 done']]);
    await store.close();
  });

  it('without the child journals, the call still names its child session', async () => {
    const store = await openStore('memory:');
    await delegateInto(store, 'p');
    const builder = new TimelineBuilder();
    for (const entry of (await store.read('p')).entries) builder.addEntry(entry as JournalEntry);
    expect(calls(builder.steps).map((step) => [step.tool?.childSessionId, step.tool?.children])).toEqual([
      ['p.t1.r1', undefined],
      ['p.t2.r2', undefined],
    ]);
    await store.close();
  });

  it('the diagram shows the child agent machine a tool actor runs, and the HANDOFF transition', () => {
    const executing = machineGraph(agentMachine).states.find((state) => state.id === 'executingTools');
    expect(executing?.nests).toEqual([{ actor: 'runTool', machine: 'agent', when: 'agentTool' }]);
    const mermaid = toMermaid(agentMachine);
    expect(mermaid).toContain('executingTools : executingTools\\nspawn runTool\\nrunTool runs child agent (agentTool)');
    expect(mermaid).toContain('executingTools --> executingTools : HANDOFF [handsOffFromRunningCall]');
  });
});
