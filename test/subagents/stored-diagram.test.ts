import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedFeed } from '../../src/cli/stored-inspector.js';
import type { ChildMachineGraph, MachineGraph } from '../../src/diagram/machine-graph.js';
import { machineGraph } from '../../src/diagram/machine-graph.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { ranAgents } from '../../src/diagram/ran-agents.js';
import { agentMachine, openStore } from '../../src/index.js';
import { readSessionTree } from '../../src/subagents.js';
import { delegateInto } from './support/delegation.js';

const childrenOf = (graph: MachineGraph | undefined): readonly ChildMachineGraph[] =>
  graph?.states.find((state) => state.id === 'executingTools')?.children ?? [];

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the diagram of a stored session', () => {
  it('draws the child machines of the agents the run started, by tool name, as deep as they went', async () => {
    const store = await openStore('memory:');
    await delegateInto(store);
    const ran = ranAgents(await readSessionTree(store, 'lead'));
    await store.close();
    // Two researcher calls, each with one analyst call: one researcher, one analyst under it.
    expect(ran).toEqual([{ name: 'researcher', children: [{ name: 'analyst', children: [] }] }]);
    const graph = machineGraph(agentMachine, { ran });
    const [researcher, ...others] = childrenOf(graph);
    expect(others).toEqual([]);
    expect(researcher).toMatchObject({ actor: 'runTool', name: 'researcher', depth: 1 });
    expect(researcher?.graph?.states.map((state) => state.id)).toEqual(graph.states.map((state) => state.id));
    const [analyst] = childrenOf(researcher?.graph);
    expect(analyst).toMatchObject({ name: 'analyst', depth: 2 });
    expect(childrenOf(analyst?.graph)).toEqual([]);
    expect(toMermaid(agentMachine, { ran })).toContain('agent_researcher');
    // A run that started no agent draws the machine alone.
    expect(childrenOf(machineGraph(agentMachine, { ran: [] }))).toEqual([]);
  });

  it('`inspect ID` serves that diagram from the store', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stored-diagram-'));
    folders.push(folder);
    const url = `sqlite:${join(folder, 'sessions.db')}`;
    const store = await openStore(url);
    await delegateInto(store);
    await store.close();
    const { feed } = await storedFeed(url, 'lead');
    const [researcher] = childrenOf(feed.snapshot().graph);
    expect(researcher?.name).toBe('researcher');
    expect(childrenOf(researcher?.graph).map((child) => child.name)).toEqual(['analyst']);
  });
});
