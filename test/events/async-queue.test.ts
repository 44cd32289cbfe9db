import { describe, expect, it } from 'vitest';
import { AsyncQueue } from '../../src/agent/async-queue.js';

/** Whether `promise` has settled once pending jobs have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('AsyncQueue', () => {
  it('buffers without holding the producer until someone reads', async () => {
    const queue = new AsyncQueue<number>();
    expect(queue.push(1)).toBeUndefined();
    expect(queue.push(2)).toBeUndefined();
    expect(await queue.take()).toEqual({ value: 1, done: false });
    expect(await queue.take()).toEqual({ value: 2, done: false });
  });

  it('once read, holds the producer of an item until the reader asks for the one after it', async () => {
    const queue = new AsyncQueue<string>();
    const first = queue.take();
    const held = queue.push('a');
    expect(held).toBeInstanceOf(Promise);
    expect(await first).toEqual({ value: 'a', done: false });
    expect(await isSettled(held as Promise<void>)).toBe(false);
    const second = queue.take();
    expect(await isSettled(held as Promise<void>)).toBe(true);
    queue.push('b');
    expect(await second).toEqual({ value: 'b', done: false });
  });

  it('holds a buffered item until it was handed out and the reader asked again', async () => {
    const queue = new AsyncQueue<string>();
    await Promise.race([queue.take(), Promise.resolve()]); // reading has begun
    queue.push('first'); // answers the waiting take
    const held = queue.push('buffered') as Promise<void>;
    expect(await isSettled(held)).toBe(false);
    expect(await queue.take()).toEqual({ value: 'buffered', done: false });
    expect(await isSettled(held)).toBe(false);
    void queue.take();
    expect(await isSettled(held)).toBe(true);
  });

  it('does not hold the producer when the reader already asked for more', () => {
    const queue = new AsyncQueue<number>();
    void queue.take();
    void queue.take();
    expect(queue.push(1)).toBeUndefined();
  });

  it('stopPacing() and close() release a held producer; after stopPacing() nothing is held', async () => {
    const queue = new AsyncQueue<number>();
    void queue.take();
    const held = queue.push(1) as Promise<void>;
    queue.stopPacing();
    expect(await isSettled(held)).toBe(true);
    void queue.take();
    expect(queue.push(2)).toBeUndefined();

    const closing = new AsyncQueue<number>();
    void closing.take();
    const heldAtClose = closing.push(1) as Promise<void>;
    closing.close();
    expect(await isSettled(heldAtClose)).toBe(true);
    expect(await closing.take()).toEqual({ value: undefined, done: true });
  });
  it('caughtUp() resolves once the reader took every unheld item and asks again, or stops', async () => {
    const queue = new AsyncQueue<string>();
    expect(queue.caughtUp()).toBeUndefined(); // nobody reads
    const first = queue.take();
    expect(queue.caughtUp()).toBeUndefined(); // the reader waits for more
    queue.push('a', false);
    queue.push('b', false);
    await first;
    const caughtUp = queue.caughtUp() as Promise<void>;
    expect(caughtUp).toBeInstanceOf(Promise);
    await queue.take(); // 'b': taken, but the reader works on it
    expect(await isSettled(caughtUp)).toBe(false);
    const next = queue.take();
    expect(await isSettled(caughtUp)).toBe(true);
    queue.push('c', false);
    await next;
    const stopped = queue.caughtUp() as Promise<void>;
    queue.stopPacing();
    expect(await isSettled(stopped)).toBe(true);
    expect(queue.caughtUp()).toBeUndefined();
  });
});
