import { describe, expect, it } from 'vitest';
import { edgeLabel } from '../../src/diagram/edge-label.js';
import type { ChildMachineGraph, MachineGraph } from '../../src/diagram/machine-graph.js';
import { machineGraph, toDot, toGraphJson, toMermaid } from '../../src/diagram.js';
import { Agent, agentMachine, agentTool, Config, ScriptedClient, ToolRegistry } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { delegationClients, leadRegistry } from './support/delegation.js';

const childrenOf = (graph: MachineGraph | undefined): readonly ChildMachineGraph[] =>
  graph?.states.find((state) => state.id === 'executingTools')?.children ?? [];

/** An agent tool named `name` whose child's tools are `registry` (filled in later, so agents can call each other). */
function agentNamed(name: string, registry: ToolRegistry, maxAgentDepth?: number) {
  return agentTool({
    name,
    description: `The ${name} agent.`,
    config: new Config(maxAgentDepth === undefined ? {} : { maxAgentDepth }),
    client: new ScriptedClient([]),
    registry,
  });
}

describe('the diagram of an agent with agent tools', () => {
  const registry = leadRegistry(delegationClients(), () => {});
  const plain = machineGraph(agentMachine);

  it('draws each child agent machine under executingTools, generated from the machine it runs, as deep as they nest', () => {
    const [researcher, ...others] = childrenOf(machineGraph(agentMachine, { registry }));
    expect(others).toEqual([]);
    expect(researcher).toMatchObject({ actor: 'runTool', name: 'researcher', depth: 1 });
    // The child's graph is the agent machine's: same states and edges.
    const { children: _researcherChildren, ...researcherTools } =
      researcher?.graph?.states.find((state) => state.id === 'executingTools') ?? {};
    expect(researcherTools).toEqual(plain.states.find((state) => state.id === 'executingTools'));
    expect(researcher?.graph?.edges).toEqual(plain.edges);
    const [analyst] = childrenOf(researcher?.graph);
    expect(analyst).toMatchObject({ actor: 'runTool', name: 'analyst', depth: 2 });
    // The analyst's tools hold no agent tool: nothing under its executingTools.
    expect(childrenOf(analyst?.graph)).toEqual([]);
    // Without a registry, the graph is the machine's alone.
    expect(childrenOf(plain)).toEqual([]);
  });

  it('Mermaid: a composite state per child, its states and edges prefixed, entered from executingTools', () => {
    const mermaid = toMermaid(agentMachine, { registry });
    expect(toMermaid(agentMachine)).toBe(mermaid.slice(0, toMermaid(agentMachine).length));
    expect(mermaid).toContain('  state agent_researcher {\n    [*] --> agent_researcher__awaitingModel\n');
    expect(mermaid).toContain('    state agent_researcher__agent_analyst {\n');
    for (const edge of plain.edges) {
      expect(mermaid).toContain(
        `    agent_researcher__${edge.from} --> agent_researcher__${edge.to} : ${edgeLabel(edge)}\n`,
      );
      expect(mermaid).toContain(
        `      agent_researcher__agent_analyst__${edge.from} --> agent_researcher__agent_analyst__${edge.to} : ${edgeLabel(edge)}\n`,
      );
    }
    expect(mermaid).toContain(
      '  executingTools --> agent_researcher : spawn runTool: researcher (agentTool, depth 1)\n',
    );
    expect(mermaid).toContain(
      '    agent_researcher__executingTools --> agent_researcher__agent_analyst : spawn runTool: analyst (agentTool, depth 2)\n',
    );
    expect(mermaid.split('{').length).toBe(mermaid.split('}').length);
  });

  it('DOT: a dashed cluster per child, its nodes prefixed, entered from executingTools', () => {
    const dot = toDot(agentMachine, { registry });
    expect(dot).toContain('  compound=true;\n');
    expect(dot).toContain('  subgraph "cluster_agent_researcher" {\n    label="researcher: child agent (depth 1)";\n');
    expect(dot).toContain('    subgraph "cluster_agent_researcher__agent_analyst" {\n');
    expect(dot).toContain(
      '  "executingTools" -> "agent_researcher/awaitingModel" [lhead="cluster_agent_researcher", style=dashed, label="spawn runTool: researcher (agentTool, depth 1)"];\n',
    );
    const nodes = dot.split('\n').filter((line) => /^\s+"agent_researcher\/[a-zA-Z]+" \[label=/.test(line));
    expect(nodes).toHaveLength(plain.states.length);
    expect(dot.split('{').length).toBe(dot.split('}').length);
    expect(toDot(agentMachine)).not.toContain('compound');
  });

  it('graph JSON carries the child machines under their state', () => {
    const json = JSON.parse(toGraphJson(agentMachine, { registry })) as MachineGraph;
    expect(childrenOf(childrenOf(json)[0]?.graph).map((child) => child.name)).toEqual(['analyst']);
  });

  it('stops at maxAgentDepth, each child bounded by its own, as the runs are', () => {
    const analystTools = new ToolRegistry();
    const researcherTools = new ToolRegistry().register(agentNamed('analyst', analystTools));
    const tools = new ToolRegistry().register(agentNamed('researcher', researcherTools, 1));
    // A researcher whose maxAgentDepth is 1 starts no analyst (it would run at depth 2).
    expect(childrenOf(childrenOf(machineGraph(agentMachine, { registry: tools }))[0]?.graph)).toEqual([]);
    // A lead at maxAgentDepth 0 starts no agent at all.
    expect(childrenOf(machineGraph(agentMachine, { registry: tools, maxAgentDepth: 0 }))).toEqual([]);
    // A lead nested at depth 3 (of 3) neither.
    expect(childrenOf(machineGraph(agentMachine, { registry: tools, depth: 3 }))).toEqual([]);
  });

  it('agents that call each other are drawn once per path, then named: no endless recursion', () => {
    const aTools = new ToolRegistry();
    const bTools = new ToolRegistry();
    const a = agentNamed('a', aTools, 50);
    const b = agentNamed('b', bTools, 50);
    aTools.register(b);
    bTools.register(a);
    aTools.register(a); // a calls itself too
    const graph = machineGraph(agentMachine, { registry: new ToolRegistry().register(a), maxAgentDepth: 50 });
    const [top] = childrenOf(graph);
    expect(top?.name).toBe('a');
    const inner = childrenOf(top?.graph);
    expect(inner.map((child) => [child.name, child.depth, child.graph === undefined])).toEqual([
      ['b', 2, false],
      ['a', 2, true],
    ]);
    expect(childrenOf(inner[0]?.graph).map((child) => [child.name, child.graph === undefined])).toEqual([['a', true]]);
    expect(toMermaid(agentMachine, { registry: aTools })).toContain('state "a: drawn above (recursive)" as');
  });

  it("the live inspector's graph draws the agent's own agent tools", () => {
    const clients = delegationClients();
    const agent = new Agent(new Config(), { client: clients.lead, registry });
    const { feed, detach } = InspectorFeed.ofAgent(agent);
    detach();
    expect(childrenOf(feed.graph).map((child) => child.name)).toEqual(['researcher']);
    expect(childrenOf(childrenOf(feed.graph)[0]?.graph).map((child) => child.name)).toEqual(['analyst']);
  });
});
