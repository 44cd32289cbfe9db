import { describe, expect, it, vi } from 'vitest';
import { AgentEvent, EventBus } from '../../src/index.js';

describe('seed: event ordering', () => {
  it('awaits each subscriber in order and contains a failing one', async () => {
    const seen: [string, string][] = [];
    const onSubscriberError = vi.fn();
    const bus = new EventBus({ onSubscriberError });
    bus.subscribe(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      seen.push(['slow', event.type]);
    });
    bus.subscribe((event) => {
      seen.push(['faulty', event.type]);
      throw new Error('subscriber failure');
    });
    bus.subscribe((event) => {
      seen.push(['final', event.type]);
    });

    await bus.emit(AgentEvent.textDelta('one'));
    await bus.emit(AgentEvent.textComplete('two'));

    expect(seen).toEqual([
      ['slow', 'text_delta'],
      ['faulty', 'text_delta'],
      ['final', 'text_delta'],
      ['slow', 'text_complete'],
      ['faulty', 'text_complete'],
      ['final', 'text_complete'],
    ]);
    expect(onSubscriberError).toHaveBeenCalledTimes(2);
  });
});
