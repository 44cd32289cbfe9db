import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolKind, ToolRegistry } from '../../src/index.js';

const tool = (name: string, extra: object = {}) => ({
  ...defineTool({ name, description: `${name} tool`, kind: ToolKind.READ, schema: z.object({}), execute: () => name }),
  ...extra,
});

describe('ToolRegistry for tool sources', () => {
  it('registers several tools in one call, in order', () => {
    expect(new ToolRegistry().register(tool('a'), tool('b')).names()).toEqual(['a', 'b']);
  });

  it('registers all or none: a clash anywhere in the call leaves the registry unchanged', () => {
    const registry = new ToolRegistry().register(tool('a', { source: 'mcp:files' }));
    expect(() => registry.register(tool('b'), tool('a'))).toThrowError(
      expect.objectContaining({
        reason: 'invalid_argument',
        message: "a tool named 'a' is already registered (from mcp:files)",
      }),
    );
    expect(() => registry.register(tool('c'), tool('c'))).toThrowError("two tools named 'c' in one register() call");
    expect(registry.names()).toEqual(['a']);
  });

  it('sends a tool’s own JSON Schema to the model as it is', () => {
    const parameters = { type: 'object', properties: { q: { type: 'string' } }, $schema: 'x' };
    const [definition] = new ToolRegistry().register(tool('search', { parameters })).definitions();
    expect(definition?.parameters).toBe(parameters);
  });

  it('unregisters a tool, and offers the model the tools that remain', () => {
    const registry = new ToolRegistry().register(tool('a'), tool('b'));
    expect(registry.definitions()).toHaveLength(2);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.definitions().map((definition) => definition.name)).toEqual(['b']);
  });
});
