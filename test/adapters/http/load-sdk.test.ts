import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSdk } from '../../../src/adapters/http/load-sdk.js';

const src = fileURLToPath(new URL('../../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('optional SDKs', () => {
  it('are never imported statically, so embedding the core does not load them', () => {
    const offenders = sources(src).filter((file) =>
      /^import(?!\s+type)[^;]*from\s+'(openai|@anthropic-ai\/sdk)(\/[^']*)?'/m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('say what to install when missing', async () => {
    const missing = 'agent-harness-no-such-sdk';
    const error = await loadSdk(missing, () => import(missing)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'model_error',
      kind: 'missing_sdk',
      message: `the optional package '${missing}' is not installed; run: npm i ${missing}`,
    });
  });
});
