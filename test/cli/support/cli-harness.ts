import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Output } from '../../../src/cli/render-human.js';
import { tempWorkspace } from '../../support/workspace.js';

/** An {@link Output} that keeps what was written. */
export function captured(): Output & { text: () => string } {
  const parts: string[] = [];
  return { write: (text) => void parts.push(text), text: () => parts.join('') };
}

/** A workspace holding the two files the fixtures' tool calls read. */
export function cliWorkspace(): string {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'app.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(cwd, 'notes.md'), '# Notes\n');
  return cwd;
}
