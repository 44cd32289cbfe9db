import { describe, expect, it } from 'vitest';
import {
  AgentEvent,
  AgentEventType,
  StreamEvent,
  StreamEventType,
  stableJson,
  ToolKind,
  ToolResult,
} from '../../src/index.js';
import { addUsage, tokenUsage } from '../../src/prices.js';
import { use } from '../support/runs.js';

describe('contract §1 data: const enums', () => {
  it('AgentEventType maps the seed UPPER_CASE names to lower-case values', () => {
    expect(AgentEventType).toMatchObject({
      AGENT_START: 'agent_start',
      TEXT_DELTA: 'text_delta',
      TEXT_COMPLETE: 'text_complete',
      TOOL_CALL_START: 'tool_call_start',
      TOOL_CALL_COMPLETE: 'tool_call_complete',
      BUDGET_WARNING: 'budget_warning',
      AGENT_END: 'agent_end',
      AGENT_ERROR: 'agent_error',
    });
  });

  it('StreamEventType has at least the four types the agent reads', () => {
    expect(StreamEventType).toMatchObject({
      TEXT_DELTA: 'text_delta',
      TOOL_CALL_COMPLETE: 'tool_call_complete',
      MESSAGE_COMPLETE: 'message_complete',
      ERROR: 'error',
    });
  });

  it('ToolKind names read, write, shell and network', () => {
    expect(ToolKind).toMatchObject({ READ: 'read', WRITE: 'write', SHELL: 'shell', NETWORK: 'network' });
  });
});

describe('contract §1 data: TokenUsage', () => {
  it('sums exactly, field by field', () => {
    const total = [use(12, 6), use(20, 7), use(1, 1)].reduce(addUsage, use(0, 0));
    expect(total).toEqual({ promptTokens: 33, completionTokens: 14, totalTokens: 47 });
  });

  it('tokenUsage fills totalTokens with the sum by default', () => {
    expect(tokenUsage(10, 4)).toEqual({ promptTokens: 10, completionTokens: 4, totalTokens: 14 });
  });
});

describe('contract §1 data: AgentEvent factories give plain {type, data} objects', () => {
  it('textDelta and textComplete carry the content', () => {
    expect(AgentEvent.textDelta('one')).toEqual({ type: 'text_delta', data: { content: 'one' } });
    expect(AgentEvent.textComplete('two')).toEqual({ type: 'text_complete', data: { content: 'two' } });
  });

  it('agentEnd carries response, usage and turnCount', () => {
    const event = AgentEvent.agentEnd('done', use(1, 2), 3);
    expect(event).toEqual({ type: 'agent_end', data: { response: 'done', usage: use(1, 2), turnCount: 3 } });
  });

  it('agentError carries a machine-readable reason and a message', () => {
    expect(AgentEvent.agentError('turn_budget', 'out of turns')).toEqual({
      type: 'agent_error',
      data: { reason: 'turn_budget', message: 'out of turns' },
    });
  });

  it('toolCallComplete carries callId, name, success and output or error', () => {
    const ok = AgentEvent.toolCallComplete({ callId: 'c1', name: 'read_file' }, ToolResult.success('text'));
    expect(ok).toEqual({
      type: 'tool_call_complete',
      data: { callId: 'c1', name: 'read_file', success: true, output: 'text' },
    });
    const bad = AgentEvent.toolCallComplete({ callId: 'c2', name: 'x' }, ToolResult.error('boom'));
    expect(bad.data).toEqual({ callId: 'c2', name: 'x', success: false, error: 'boom' });
  });

  it('events survive a JSON round trip unchanged', () => {
    const event = AgentEvent.agentEnd('ok', use(3, 4), 1);
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });
});

describe('contract §1 data: StreamEvent factories', () => {
  it('build the shapes a client yields', () => {
    expect(StreamEvent.textDelta('hi')).toMatchObject({ type: 'text_delta' });
    const call = { callId: 'c1', name: 'read_file', arguments: { path: 'a' } };
    expect(StreamEvent.toolCallComplete(call)).toEqual({ type: 'tool_call_complete', toolCall: call });
    expect(StreamEvent.messageComplete(use(1, 1))).toMatchObject({ type: 'message_complete', usage: use(1, 1) });
    expect(StreamEvent.error('bad')).toMatchObject({ type: 'error' });
  });
});

describe('contract §6 ToolResult factories', () => {
  it('success and error return plain {success, output?, error?}', () => {
    expect(ToolResult.success('out')).toEqual({ success: true, output: 'out' });
    expect(ToolResult.error('why')).toEqual({ success: false, error: 'why' });
  });
});

describe('contract §1 stable JSON', () => {
  it('gives equal bytes for equal data regardless of key order', () => {
    expect(stableJson({ b: 1, a: { d: 2, c: 3 } })).toBe(stableJson({ a: { c: 3, d: 2 }, b: 1 }));
  });
});
