import { describe, expect, it } from 'vitest';
import { AgentEvent, StreamEvent, ToolResult } from '../../src/index.js';
import { textOf } from '../../src/machine.js';

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };

describe('AgentEvent factories', () => {
  it('build plain {type, data} objects, positionally or from a data object', () => {
    expect(AgentEvent.textDelta('one')).toEqual({ type: 'text_delta', data: { content: 'one' } });
    expect(AgentEvent.agentEnd('done', usage, 2)).toEqual(
      AgentEvent.agentEnd({ response: 'done', usage, turnCount: 2 }),
    );
    expect(AgentEvent.agentError({ reason: 'aborted', message: 'stop' })).toEqual({
      type: 'agent_error',
      data: { reason: 'aborted', message: 'stop' },
    });
    expect(AgentEvent.toolCallComplete({ callId: 'c', name: 't', success: false, error: 'x' })).toEqual(
      AgentEvent.toolCallComplete({ callId: 'c', name: 't' }, ToolResult.error('x')),
    );
  });
});

describe('ToolResult', () => {
  it('has the seed names as aliases', () => {
    expect(ToolResult.successResult('a')).toEqual(ToolResult.success('a'));
    expect(ToolResult.errorResult('b')).toEqual({ success: false, error: 'b' });
  });
});

describe('textOf', () => {
  it('reads a text delta as a string, {content} or {text}, never inventing text', () => {
    expect(textOf('a')).toBe('a');
    expect(textOf(StreamEvent.textDelta('b').textDelta)).toBe('b');
    expect(textOf({ text: 'c' } as never)).toBe('c');
    expect(textOf({} as never)).toBe('');
  });
});
