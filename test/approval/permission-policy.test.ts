import { describe, expect, it } from 'vitest';
import { checkPermissions, permissionDefaults, permissionFor } from '../../src/config/permission-policy.js';
import { Config, HarnessError } from '../../src/index.js';
import { mcpToolKind } from '../../src/mcp/mcp-tool.js';

describe('Config({ permissions })', () => {
  it('defaults to allowing everything (no change for existing embedders)', () => {
    const config = new Config();
    expect(config.permissions).toEqual({});
    expect(permissionFor(config.permissions, 'shell', 'shell')).toBe('allow');
  });

  it('a name beats a kind; a kind applies to every tool of that kind', () => {
    const policy = checkPermissions({ write: 'deny', edit_file: 'ask', shell: 'ask' });
    expect(permissionFor(policy, 'edit_file', 'write')).toBe('ask');
    expect(permissionFor(policy, 'write_file', 'write')).toBe('deny');
    expect(permissionFor(policy, 'read_file', 'read')).toBe('allow');
    expect(permissionFor(policy, 'unknown_tool', undefined)).toBe('allow');
  });

  it('permissionDefaults.interactive: read runs, write, shell, network (and other) ask', () => {
    const policy = permissionDefaults.interactive;
    expect(permissionFor(policy, 'grep', 'read')).toBe('allow');
    for (const kind of ['write', 'shell', 'network', 'other']) expect(permissionFor(policy, 'x', kind)).toBe('ask');
  });

  it('MCP tools without a read-only hint are network (they ask), read-only ones read', () => {
    const policy = permissionDefaults.interactive;
    const kind = (readOnlyHint?: boolean) =>
      mcpToolKind({ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint } } as never);
    expect(permissionFor(policy, 't', kind())).toBe('ask');
    expect(permissionFor(policy, 't', kind(true))).toBe('allow');
  });

  it('refuses a bad policy with an error naming the input', () => {
    expect(() => new Config({ permissions: { shell: 'maybe' } as never })).toThrowError(
      /permissions.shell must be 'allow', 'ask', 'deny' or a function of the call, got "maybe"/,
    );
    expect(() => new Config({ permissions: ['shell'] as never })).toThrowError(/permissions must be an object/);
    expect(() => new Config({ permissions: { '': 'ask' } })).toThrowError(/empty tool name or kind/);
    try {
      new Config({ permissions: 'ask' as never });
    } catch (error) {
      expect(HarnessError.isInstance(error) && error.reason).toBe('invalid_config');
    }
  });

  it('suggests the key for a misspelled option', () => {
    expect(() => new Config({ permission: {} } as never)).toThrowError(/did you mean 'permissions'/);
  });

  it('is frozen', () => {
    const config = new Config({ permissions: { shell: 'ask' } });
    expect(Object.isFrozen(config.permissions)).toBe(true);
  });
});
