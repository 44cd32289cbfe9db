import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator } from '../../../src/adapters/openai/tool-call-accumulator.js';

describe('ToolCallAccumulator', () => {
  it('starts a new call when a server reuses index 0 with a new id', () => {
    const calls = new ToolCallAccumulator();
    calls.add([{ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"path":' } }]);
    calls.add([{ index: 0, function: { arguments: '"x"}' } }]);
    calls.add([{ index: 0, id: 'b', function: { name: 'read_file', arguments: '{"path":"y"}' } }]);
    expect(calls.complete()).toEqual([
      { callId: 'a', name: 'read_file', arguments: { path: 'x' } },
      { callId: 'b', name: 'read_file', arguments: { path: 'y' } },
    ]);
  });

  it('places fragments without an index by their position, and names calls without an id', () => {
    const calls = new ToolCallAccumulator();
    calls.add([{ function: { name: 'one', arguments: '' } }, { function: { name: 'two', arguments: '{}' } }]);
    expect(calls.complete()).toEqual([
      { callId: 'call_0', name: 'one', arguments: {} },
      { callId: 'call_1', name: 'two', arguments: {} },
    ]);
  });

  it('keeps arguments that are JSON but not an object as raw text', () => {
    const calls = new ToolCallAccumulator();
    calls.add([{ index: 0, id: 'a', function: { name: 'f', arguments: '["x"]' } }]);
    expect(calls.complete()[0]?.arguments).toBe('["x"]');
  });
});
