import { describe, expect, it } from 'vitest';
import { docImports, importCheckModule } from '../../scripts/doc-imports.js';

const markdown = [
  '# Title',
  '',
  '```ts',
  "import fc from 'fast-check';",
  "import { Agent, type Config, ToolRegistry as Registry } from 'agent-harness';",
  'import {',
  '  OpenAIClient,',
  "} from 'agent-harness/openai';",
  '```',
  '',
  '```sh',
  "import { NotCode } from 'agent-harness';",
  '```',
  '',
  '```ts',
  "import * as harness from 'agent-harness/testing';",
  '```',
].join('\n');

describe('docImports (scripts/check-package.ts checks these against the packed package)', () => {
  it("finds each ts block's imports of agent-harness entries with the names they import and their lines", () => {
    expect(docImports('docs/x.md', markdown)).toEqual([
      { doc: 'docs/x.md', line: 5, specifier: 'agent-harness', names: ['Agent', 'Config', 'ToolRegistry'] },
      { doc: 'docs/x.md', line: 6, specifier: 'agent-harness/openai', names: ['OpenAIClient'] },
      { doc: 'docs/x.md', line: 16, specifier: 'agent-harness/testing', names: [] },
    ]);
  });

  it('writes one import per found statement, line for line, so a missing name fails on its line', () => {
    const module = importCheckModule(docImports('docs/x.md', markdown));
    expect(module.split('\n').slice(0, 3)).toEqual([
      "import type { Agent as _0_0, Config as _0_1, ToolRegistry as _0_2 } from 'agent-harness';",
      "import type { OpenAIClient as _1_0 } from 'agent-harness/openai';",
      "import type * as _2 from 'agent-harness/testing';",
    ]);
  });
});
