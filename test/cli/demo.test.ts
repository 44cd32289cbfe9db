import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readJournalFile } from '../../src/journal.js';
import { tempWorkspace } from '../support/workspace.js';
import { captured } from './support/cli-harness.js';

describe('agent-harness demo', () => {
  it('runs offline, prints each tool call and the summary, saves the journal, exits 0', async () => {
    const file = join(tempWorkspace(), 'demo.jsonl');
    const out = captured();
    const code = await main(['demo', '--journal', file], out, captured());
    expect(code).toBe(0);
    const text = out.text();
    expect(text).toContain('→ read_file {"path":"app.py"}\n');
    expect(text).toContain('→ read_file {"path":"notes.md"}\n');
    expect(text).toContain('app.py defines add(a, b)');
    expect(text).toMatch(/done: final answer · 2 turns · 215 tokens \(160 in \/ 55 out\) · \$0\.000270 · \d+ ms\n/);
    const journal = await readJournalFile(file);
    expect(text).toContain(`journal: ${file} (${journal.length} entries)`);
  });

  it('prints NDJSON with --json, ending with the summary', async () => {
    const out = captured();
    const code = await main(['demo', '--json', '--journal', join(tempWorkspace(), 'demo.jsonl')], out, captured());
    expect(code).toBe(0);
    const types = out
      .text()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('agent_start');
    expect(types.slice(-2)).toEqual(['agent_end', 'summary']);
    expect(types.filter((type) => type === 'tool_call_complete')).toHaveLength(2);
  });

  it('exits 2 on an unknown flag', async () => {
    const err = captured();
    expect(await main(['demo', '--model', 'x'], captured(), err)).toBe(2);
    expect(err.text()).toContain("Unknown option '--model'");
  });
});
