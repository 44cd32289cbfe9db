import { describe, expect, it } from 'vitest';
import { AgentEvent, EventBus } from '../../src/index.js';

describe('EventBus.gate', () => {
  it('shows each subscriber what the gates return, skips it on undefined, and is asked per subscriber', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    let hidden = false;
    const first = async (event: AgentEvent) => {
      seen.push(`first ${event.type}`);
      await Promise.resolve();
      hidden = true; // decided while this subscriber held the event
    };
    const second = (event: AgentEvent) => {
      seen.push(`second ${event.type}`);
    };
    bus.subscribe(first);
    bus.subscribe(second);
    const asked: string[] = [];
    const remove = bus.gate((event, subscriber) => {
      asked.push(subscriber === first ? 'first' : 'second');
      if (!hidden) return event;
      return event.type === 'agent_end' ? AgentEvent.agentError('store_error', 'gone') : undefined;
    });
    await bus.emit(AgentEvent.textDelta('one'));
    await bus.emit(AgentEvent.textDelta('two'));
    await bus.emit(
      AgentEvent.agentEnd({
        response: 'x',
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        turnCount: 1,
      }),
    );
    // 'one' reached the first before the gate changed its answer, not the second; 'two' neither.
    expect(seen).toEqual(['first text_delta', 'first agent_error', 'second agent_error']);
    expect(asked).toEqual(['first', 'second', 'first', 'second', 'first', 'second']);
    remove();
    await bus.emit(AgentEvent.textDelta('three'));
    expect(seen.slice(3)).toEqual(['first text_delta', 'second text_delta']);
  });
});
