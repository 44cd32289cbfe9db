import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderGraph, layerViolations, readLayerTable, sourceImports } from './import-graph.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const table = readLayerTable(readFileSync(`${repo}docs/architecture.md`, 'utf8'));
const imports = sourceImports(`${repo}src`);

describe('the layers of src/', () => {
  it('names every folder under src/ in the table of docs/architecture.md', () => {
    const folders = new Set(imports.flatMap((edge) => [edge.fromFolder, edge.toFolder]).filter((f) => f !== ''));
    expect([...folders].filter((folder) => !table.has(folder)).sort()).toEqual([]);
  });

  it('has no import, type imports included, from a folder to one on its own row or a higher one', () => {
    expect(layerViolations(imports, table)).toEqual([]);
  });

  it('has no circle between folders', () => {
    const graph = folderGraph(imports);
    expect(graph.cycles).toEqual([]);
  });

  it('reports a planted upward import, and a planted circle', () => {
    const upward = {
      from: 'src/core/errors.ts',
      to: 'src/agent/agent.ts',
      fromFolder: 'core',
      toFolder: 'agent',
      typeOnly: true,
    };
    const planted = [...imports, upward];
    expect(layerViolations([upward], table)).toEqual([
      expect.stringContaining('src/core/errors.ts (core, row 1) imports src/agent/agent.ts (agent, row'),
    ]);
    expect(folderGraph(planted).cycles.length).toBeGreaterThan(0);
  });
});
