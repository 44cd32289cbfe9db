import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractDiagram } from '../../src/diagram/diagram-block.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { agentMachine } from '../../src/index.js';

describe('docs/architecture.md', () => {
  it('embeds the diagram generated from the current machine (run `npm run docs:diagram`)', () => {
    const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    expect(extractDiagram(doc)).toBe(toMermaid(agentMachine));
  });
});
