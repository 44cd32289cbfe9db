import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { extractDiagram } from '../../src/inspect/diagram-block.js';
import { toMermaid } from '../../src/inspect/mermaid.js';

describe('docs/architecture.md', () => {
  it('embeds the diagram generated from the current machine (run `npm run docs:diagram`)', () => {
    const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    expect(extractDiagram(doc)).toBe(toMermaid(agentMachine));
  });
});
