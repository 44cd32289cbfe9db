import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Config, defineTool, ToolKind, ToolRegistry } from '../../../src/index.js';
import { workspaceTools } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

describe('workspaceTools', () => {
  it('returns the seven tools, each with its kind, ready to register', () => {
    const tools = workspaceTools(new Config());
    expect(tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['read_file', 'read'],
      ['list_dir', 'read'],
      ['glob', 'read'],
      ['grep', 'read'],
      ['write_file', 'write'],
      ['edit_file', 'write'],
      ['shell', 'shell'],
    ]);
  });

  it('makes the read tools idempotent and concurrency-safe, and the others neither', () => {
    const { registry } = workspaceFixture();
    const safe = registry.names().filter((name) => registry.isIdempotent(name));
    expect(safe).toEqual(['read_file', 'list_dir', 'glob', 'grep']);
    expect(registry.names().filter((name) => registry.isConcurrencySafe(name))).toEqual(safe);
  });

  it('sends the model the parameters SPEC §10 names', () => {
    const { registry } = workspaceFixture();
    const parameters = Object.fromEntries(
      registry.definitions().map((definition) => {
        const schema = definition.parameters as { properties: object; required?: string[] };
        return [definition.name, { all: Object.keys(schema.properties), required: schema.required ?? [] }];
      }),
    );
    expect(parameters).toEqual({
      read_file: { all: ['path', 'offset', 'limit'], required: ['path'] },
      list_dir: { all: ['path'], required: [] },
      glob: { all: ['pattern'], required: ['pattern'] },
      grep: { all: ['pattern', 'path', 'glob', 'context', 'ignoreCase', 'maxMatches'], required: ['pattern'] },
      write_file: { all: ['path', 'content'], required: ['path', 'content'] },
      edit_file: { all: ['path', 'old', 'new'], required: ['path', 'old', 'new'] },
      shell: { all: ['command', 'timeoutMs'], required: ['command'] },
    });
  });

  it('tells the model about the limits and the environment allow-list', () => {
    const byName = new Map(workspaceTools(new Config()).map((tool) => [tool.name, tool.description]));
    expect(byName.get('grep')).toMatch(/first 10,000 characters of a line.*20 MB.*10 s/);
    expect(byName.get('shell')).toMatch(/only a few environment variables .*: no API keys, tokens or passwords/);
    expect(byName.get('shell')).toMatch(/default 120 s, at most 600 s/);
  });
});

describe('ToolRegistry.isIdempotent', () => {
  it("follows a tool's own flag, defaults to kind read, and is false for an unknown tool", () => {
    const schema = z.object({});
    const registry = new ToolRegistry()
      .register(defineTool({ name: 'r', description: '', kind: ToolKind.READ, schema, execute: () => '' }))
      .register(defineTool({ name: 'w', description: '', kind: ToolKind.WRITE, schema, execute: () => '' }))
      .register(
        defineTool({ name: 'put', description: '', kind: ToolKind.WRITE, idempotent: true, schema, execute: () => '' }),
      )
      .register(
        defineTool({ name: 'rnd', description: '', kind: ToolKind.READ, idempotent: false, schema, execute: () => '' }),
      );
    expect(['r', 'w', 'put', 'rnd', 'missing'].map((name) => registry.isIdempotent(name))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
});
