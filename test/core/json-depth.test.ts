import { describe, expect, it } from 'vitest';
import { nestedDeeperThan, valueDeeperThan } from '../../src/core/json-depth.js';

describe('nestedDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(nestedDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(nestedDeeperThan('[[]][[]]', 2)).toBe(false);
  });
});

describe('valueDeeperThan', () => {
  it('counts nested arrays and objects of a value, without recursion', () => {
    expect(valueDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(valueDeeperThan({ a: [{ b: [1] }] }, 3)).toBe(true);
    expect(valueDeeperThan('[[[[', 1)).toBe(false);
    expect(valueDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), 100)).toBe(true);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(valueDeeperThan(cycle, 100)).toBe(true);
  });
});
