import { describe, expect, it, vi } from 'vitest';

describe('examples/workspace-tools.ts', () => {
  it('writes, edits, greps and runs a command through the real tools, and refuses an escape', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.join(' '));
    });
    try {
      await import(/* @vite-ignore */ new URL('../../../examples/workspace-tools.ts', import.meta.url).href);
    } finally {
      log.mockRestore();
    }
    expect(lines).toEqual([
      'write_file -> Wrote 67 bytes to src/greet.ts (created)',
      'edit_file -> Edited src/greet.ts: replaced line 2 with 1 line',
      "grep -> src/greet.ts:2:  return 'Bonjour, ' + name;\n[1 matching line in 1 file]",
      'shell -> exit code 2\n[stdout]\nlines: 3',
      "read_file -> Error: path '../outside.txt' is outside the workspace",
      'answer: greet() now says Bonjour.',
    ]);
  });
});
