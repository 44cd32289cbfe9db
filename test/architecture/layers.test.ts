import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { faceProblems, folderGraph, layerViolations, readLayerTable, sourceImports } from './import-graph.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const table = readLayerTable(readFileSync(`${repo}docs/architecture.md`, 'utf8'));
const imports = sourceImports(`${repo}src`);
// The command: nothing imports it, and its entry is package.json's `bin` (cli/bin.ts).
const faceless = ['cli'];

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

describe('the faces of the folders of src/', () => {
  it('gives every folder under src/ but cli/ an index.ts of named re-exports only', () => {
    expect(faceProblems(`${repo}src`, faceless)).toEqual([]);
    expect(imports.filter((edge) => faceless.includes(edge.toFolder) && edge.fromFolder !== edge.toFolder)).toEqual([]);
  });

  it('reports a planted folder without a face, and a face with a star export or code of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faces-'));
    try {
      const src = join(dir, 'src');
      for (const folder of ['bare', 'starry', 'fine', 'cli']) mkdirSync(join(src, folder), { recursive: true });
      writeFileSync(
        join(src, 'starry', 'index.ts'),
        "export * from './a.js';\nexport type * from './b.js';\nconst x = 1;\n",
      );
      writeFileSync(join(src, 'fine', 'index.ts'), "export type { A } from './a.js';\nexport { b } from './b.js';\n");
      expect(faceProblems(src, ['cli'])).toEqual([
        'src/bare/index.ts is missing: the folder has no face',
        "src/starry/index.ts:1 is not a named re-export: export * from './a.js';",
        "src/starry/index.ts:2 is not a named re-export: export type * from './b.js';",
        'src/starry/index.ts:3 is not a named re-export: const x = 1;',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
