import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { toDot } from '../../src/diagram/dot.js';
import { toGraphJson } from '../../src/diagram/graph-json.js';
import { machineGraph, toMermaid } from '../../src/diagram.js';
import { agentMachine } from '../../src/index.js';

const graph = machineGraph(agentMachine);

describe('toMermaid', () => {
  const mermaid = toMermaid(agentMachine);

  it('is a stateDiagram-v2 with one line per edge, labelled event [guard]', () => {
    expect(mermaid.startsWith('stateDiagram-v2\n  [*] --> awaitingModel\n')).toBe(true);
    expect(mermaid).toContain('  awaitingModel --> executingTools : MODEL_TURN [turnAskedForTools]\n');
    expect(mermaid.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'))).toHaveLength(
      graph.edges.length,
    );
  });

  it('labels states with the actors they spawn, and only those', () => {
    expect(mermaid).not.toContain('awaitingModel : awaitingModel');
    expect(mermaid).toContain(
      '  executingTools : executingTools\\nspawn runTool\\nrunTool runs child agent (agentTool)\n',
    );
    expect(mermaid).toContain('  done --> [*]\n');
  });
});

describe('toDot', () => {
  const dot = toDot(agentMachine);

  it('is a digraph with a node per state and an edge per transition', () => {
    expect(dot.startsWith('digraph "agent" {\n')).toBe(true);
    expect(dot.trimEnd().endsWith('}')).toBe(true);
    for (const state of graph.states) expect(dot).toContain(`  "${state.id}" [label="${state.id}`);
    expect(dot.split('\n').filter((l) => / -> /.test(l) && !l.includes('[*]'))).toHaveLength(graph.edges.length);
  });

  it('labels guards and actors, and marks final states with a double border', () => {
    expect(dot).toContain('"budgetCheck" -> "error" [label="always [hardLimitReached]"];');
    expect(dot).toContain('"awaitingModel" [label="awaitingModel"];');
    expect(dot).toContain(
      '"executingTools" [label="executingTools\\nspawn runTool\\nrunTool runs child agent (agentTool)"];',
    );
    expect(dot).toContain('"done" [label="done", peripheries=2];');
  });

  it('escapes quotes and backslashes in names', () => {
    const machine = createMachine({ id: 'q"m', initial: 'a', states: { a: { on: { 'say "hi"\\': 'a' } } } });
    expect(toDot(machine)).toContain('"a" -> "a" [label="say \\"hi\\"\\\\"];');
  });
});

describe('toGraphJson', () => {
  it('round-trips to the machine graph', () => {
    expect(JSON.parse(toGraphJson(agentMachine))).toEqual(JSON.parse(JSON.stringify(graph)));
  });
});
