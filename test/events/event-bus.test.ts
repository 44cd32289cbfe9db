import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { AgentEvent, EventBus } from '../../src/index.js';

describe('EventBus', () => {
  it('puts transitions and events on stream$ synchronously, in emit order (virtual time)', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ cold, expectObservable }) => {
      const bus = new EventBus({ now: () => scheduler.now() });
      const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
      const records$ = bus.stream$.pipe(map((record) => `${record.seq}:${record.entry.type}@${record.at}`));
      expectObservable(records$).toBe('a-b--c', {
        a: '0:text_delta@0',
        b: '1:transition@2',
        c: '2:agent_end@5',
      });
      cold('a-b--c|').subscribe((tick) => {
        if (tick === 'a') void bus.emit(AgentEvent.textDelta('x'));
        if (tick === 'b') bus.record({ type: 'transition', from: 'awaitingModel', to: 'done', event: 'e' }, 0);
        if (tick === 'c') void bus.emit(AgentEvent.agentEnd('x', usage, 1));
      });
    });
  });

  it('awaits each subscriber before the next and resolves emit only after all of them', async () => {
    const bus = new EventBus();
    const order: string[] = [];
    let release: () => void = () => {};
    bus.subscribe(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            order.push('slow done');
            resolve();
          };
        }),
    );
    bus.subscribe(() => {
      order.push('second');
    });
    const emitted = bus.emit(AgentEvent.textDelta('a')).then(() => order.push('emit resolved'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    release();
    await emitted;
    expect(order).toEqual(['slow done', 'second', 'emit resolved']);
  });

  it("resolves an event's emit once that event is delivered, not once the events queued behind it are", async () => {
    const bus = new EventBus();
    const gates: (() => void)[] = [];
    bus.subscribe(
      () =>
        new Promise<void>((resolve) => {
          gates.push(resolve);
        }),
    );
    const order: string[] = [];
    const first = bus.emit(AgentEvent.textDelta('a')).then(() => order.push('first resolved'));
    const second = bus.emit(AgentEvent.textComplete('a')).then(() => order.push('second resolved'));
    gates[0]?.(); // the subscriber is done with the first event only
    await first;
    expect(order).toEqual(['first resolved']);
    expect(gates).toHaveLength(2); // the second is being delivered now
    gates[1]?.();
    await second;
    await bus.idle();
    expect(order).toEqual(['first resolved', 'second resolved']);
  });

  it('delivers concurrent emits in call order, one event at a time', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe(async (event) => {
      seen.push(`in ${event.type}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(`out ${event.type}`);
    });
    await Promise.all([bus.emit(AgentEvent.textDelta('a')), bus.emit(AgentEvent.textComplete('a'))]);
    expect(seen).toEqual(['in text_delta', 'out text_delta', 'in text_complete', 'out text_complete']);
  });

  it('post() delivers as emit() does, in order with emitted events, and returns nothing', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const records: string[] = [];
    bus.stream$.subscribe((record) => records.push(record.entry.type));
    let release: () => void = () => {};
    bus.subscribe(async (event) => {
      seen.push(event.type);
      if (event.type === 'text_delta') await new Promise<void>((resolve) => (release = resolve));
    });
    expect(bus.post(AgentEvent.textDelta('a'))).toBeUndefined();
    const emitted = bus.emit(AgentEvent.textComplete('a'));
    bus.post(AgentEvent.agentEnd('a', { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, 1));
    expect(records).toEqual(['text_delta', 'text_complete', 'agent_end']);
    expect(seen).toEqual(['text_delta']);
    expect(bus.isIdle).toBe(false);
    release();
    await emitted;
    await bus.idle();
    expect(seen).toEqual(['text_delta', 'text_complete', 'agent_end']);
  });

  it('reports a rejecting subscriber and keeps delivering; idle() waits for the queue', async () => {
    const onSubscriberError = vi.fn();
    const bus = new EventBus({ onSubscriberError });
    const seen: string[] = [];
    bus.subscribe(async () => Promise.reject(new Error('nope')));
    bus.subscribe((event) => {
      seen.push(event.type);
    });
    void bus.emit(AgentEvent.textDelta('a'));
    void bus.emit(AgentEvent.textComplete('a'));
    await bus.idle();
    expect(seen).toEqual(['text_delta', 'text_complete']);
    expect(onSubscriberError).toHaveBeenCalledTimes(2);
    expect(onSubscriberError.mock.calls[0]?.[0]).toBeInstanceOf(Error);
  });

  it('unsubscribe stops delivery to that subscriber only', async () => {
    const bus = new EventBus();
    const a: string[] = [];
    const b: string[] = [];
    const stopA = bus.subscribe((event) => {
      a.push(event.type);
    });
    bus.subscribe((event) => {
      b.push(event.type);
    });
    const stopB = bus.subscribe((event) => {
      b.push(`again ${event.type}`);
    });
    await bus.emit(AgentEvent.textDelta('1'));
    stopA();
    stopB.unsubscribe();
    await bus.emit(AgentEvent.textDelta('2'));
    expect(a).toHaveLength(1);
    expect(b).toEqual(['text_delta', 'again text_delta', 'text_delta']);
  });

  it('delivers an event emitted by a subscriber after the current one reached every subscriber', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(`first:${event.type}`);
      if (event.type === 'text_delta') void bus.emit(AgentEvent.textComplete('a'));
    });
    bus.subscribe((event) => {
      seen.push(`second:${event.type}`);
    });
    await bus.emit(AgentEvent.textDelta('a'));
    await bus.idle();
    expect(seen).toEqual(['first:text_delta', 'second:text_delta', 'first:text_complete', 'second:text_complete']);
  });

  it('goes asynchronous only from the first async subscriber on, and later emits wait for it', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    let release: () => void = () => {};
    bus.subscribe((event) => {
      seen.push(`sync:${event.type}`);
    });
    bus.subscribe(async (event) => {
      if (event.type === 'text_delta') await new Promise<void>((resolve) => (release = resolve));
      seen.push(`async:${event.type}`);
    });
    const first = bus.emit(AgentEvent.textDelta('a'));
    const second = bus.emit(AgentEvent.textComplete('a'));
    const idle = bus.idle();
    expect(seen).toEqual(['sync:text_delta']);
    release();
    await Promise.all([first, second, idle]);
    expect(seen).toEqual(['sync:text_delta', 'async:text_delta', 'sync:text_complete', 'async:text_complete']);
  });

  it('is idle once every emitted event reached every subscriber, and idle() resolves then', async () => {
    const bus = new EventBus();
    let release: () => void = () => {};
    bus.subscribe((event) => {
      if (event.type === 'text_delta') return new Promise<void>((resolve) => (release = resolve));
    });
    await bus.emit(AgentEvent.agentStart('go', false));
    expect(bus.isIdle).toBe(true); // every subscriber was synchronous
    void bus.emit(AgentEvent.textDelta('a'));
    void bus.emit(AgentEvent.textComplete('a'));
    expect(bus.isIdle).toBe(false);
    let idle = false;
    const waiting = bus.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(bus.isIdle).toBe(true);
  });

  it('while hurrying, gives up on a subscriber that holds an event past stopGraceMs and reports it', async () => {
    const failures: unknown[] = [];
    const bus = new EventBus({ stopGraceMs: 20, onSubscriberError: (error) => failures.push(error) });
    const later: string[] = [];
    bus.subscribe((event) => (event.type === 'text_delta' ? new Promise<void>(() => {}) : undefined)); // stuck for ever
    bus.subscribe((event) => {
      later.push(event.type);
    });
    const stuck = bus.emit(AgentEvent.textDelta('a'));
    const end = bus.emit(AgentEvent.agentError('aborted', 'stop'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(later).toEqual([]); // not hurrying: a slow subscriber holds the stream (backpressure)
    bus.hurry();
    await Promise.all([stuck, end]);
    expect(later).toEqual(['text_delta', 'agent_error']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ reason: 'subscriber_timeout', eventType: 'text_delta' });
  });

  it('while hurrying, waits once for a stuck subscriber, not once per event', async () => {
    const failures: unknown[] = [];
    const bus = new EventBus({ stopGraceMs: 30, onSubscriberError: (error) => failures.push(error) });
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(event.type);
      return new Promise<void>(() => {}); // stuck on every event, for ever
    });
    bus.hurry(); // nothing delivering yet: no effect
    const first = bus.emit(AgentEvent.textDelta('a'));
    bus.hurry();
    const rest = [1, 2, 3, 4, 5].map((n) => bus.emit(AgentEvent.textDelta(String(n))));
    await Promise.all([first, ...rest]);
    // Given up on once, for the first event; the later five reach it but are not waited for.
    expect(seen).toHaveLength(6);
    expect(failures).toHaveLength(1);
    expect(bus.isIdle).toBe(true);
  });

  it('resolves an emit made inside a synchronous delivery once its own event is delivered, even when that one is held', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    let inner: Promise<void> | undefined;
    let release: () => void = () => {};
    bus.subscribe((event) => {
      seen.push(`a:${event.type}`);
      if (event.type === 'text_delta') inner = bus.emit(AgentEvent.textComplete('x'));
    });
    bus.subscribe((event) => {
      seen.push(`b:${event.type}`);
      if (event.type === 'text_complete') return new Promise<void>((resolve) => (release = resolve));
    });
    let outerDone = false;
    let innerDone = false;
    const outer = bus.emit(AgentEvent.textDelta('x')).then(() => (outerDone = true));
    void inner?.then(() => (innerDone = true));
    await Promise.resolve();
    await Promise.resolve();
    // The outer event reached both subscribers at once: its promise does not wait for the inner one.
    expect(outerDone).toBe(true);
    expect(innerDone).toBe(false);
    expect(bus.isIdle).toBe(false);
    release();
    await outer;
    await inner;
    expect(innerDone).toBe(true);
    expect(bus.isIdle).toBe(true);
    expect(seen).toEqual(['a:text_delta', 'b:text_delta', 'a:text_complete', 'b:text_complete']);
  });

  it('counts records nobody observed, so a late observer sees positions from where the stream is', async () => {
    const bus = new EventBus();
    await bus.emit(AgentEvent.textDelta('unseen'));
    bus.record({ type: 'transition', from: 'awaitingModel', to: 'done', event: 'e' }, 0);
    const seqs: number[] = [];
    const subscription = bus.stream$.subscribe((record) => seqs.push(record.seq));
    await bus.emit(AgentEvent.textComplete('seen'));
    subscription.unsubscribe();
    expect(seqs).toEqual([2]);
  });
});
