import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary workspace, removed after the test. */
export function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-test-'));
  made.push(dir);
  return dir;
}
