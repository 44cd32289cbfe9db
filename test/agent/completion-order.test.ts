import { describe, expect, it } from 'vitest';
import { CompletionOrder } from '../../src/agent/completion-order.js';

/** Starts calls 0..n-1 of a turn, then completes them in `finishing` order; returns the announced order. */
function turn(order: CompletionOrder, n: number, finishing: number[], announced: number[]): void {
  for (let index = 0; index < n; index++) order.started(index);
  for (const index of finishing) order.complete(index, () => void announced.push(index));
}

describe('CompletionOrder', () => {
  it('announces in call order whatever order the calls finish in', () => {
    const announced: number[] = [];
    turn(new CompletionOrder(), 4, [2, 3, 0, 1], announced);
    expect(announced).toEqual([0, 1, 2, 3]);
  });

  it('starts over with each turn, however many calls the turn before had', () => {
    const order = new CompletionOrder();
    const announced: number[] = [];
    turn(order, 1, [0], announced);
    turn(order, 3, [1, 2, 0], announced); // call 1 of this turn must wait for its call 0
    turn(order, 2, [1, 0], announced);
    expect(announced).toEqual([0, 0, 1, 2, 0, 1]);
  });

  it('waits for an announcement that must be awaited before announcing the next call', async () => {
    const order = new CompletionOrder();
    const log: string[] = [];
    let release = (): void => {};
    order.started(0);
    order.started(1);
    order.complete(1, () => void log.push('1'));
    order.complete(
      0,
      () =>
        new Promise<void>((resolve) => {
          log.push('0 begins');
          release = () => {
            log.push('0 ends');
            resolve();
          };
        }),
    );
    expect(log).toEqual(['0 begins']);
    release();
    await Promise.resolve();
    expect(log).toEqual(['0 begins', '0 ends', '1']);
  });

  it('releases a long chain of held calls without growing the stack', () => {
    const order = new CompletionOrder();
    const n = 100_000;
    const announced: number[] = [];
    for (let index = 0; index < n; index++) order.started(index);
    for (let index = n - 1; index >= 0; index--) order.complete(index, () => void announced.push(index));
    expect(announced).toHaveLength(n);
    expect(announced[n - 1]).toBe(n - 1);
  });

  it("keeps a turn's late announcement from touching the next turn", async () => {
    const order = new CompletionOrder();
    const announced: string[] = [];
    order.started(0);
    order.complete(0, () => Promise.resolve().then(() => void announced.push('turn 1 call 0')));
    order.started(0); // the next turn starts before the last announcement has finished
    order.started(1);
    order.complete(1, () => void announced.push('turn 2 call 1'));
    order.complete(0, () => void announced.push('turn 2 call 0'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(announced).toEqual(['turn 2 call 0', 'turn 2 call 1', 'turn 1 call 0']);
  });
});
