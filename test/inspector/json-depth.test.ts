import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/inspector/json-depth.js';

describe('nestedDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(nestedDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(nestedDeeperThan('[[]][[]]', 2)).toBe(false);
  });
});
