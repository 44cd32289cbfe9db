/**
 * Regenerates the machine diagram in docs/architecture.md from the machine definition.
 * `npm run docs:diagram`; a test fails when the committed diagram is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { replaceDiagram } from '../src/diagram/diagram-block.js';
import { toMermaid } from '../src/diagram/mermaid.js';
import { agentMachine } from '../src/index.js';

const path = new URL('../docs/architecture.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = replaceDiagram(before, toMermaid(agentMachine));
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'docs/architecture.md: diagram up to date' : 'docs/architecture.md: diagram updated');
