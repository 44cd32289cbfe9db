import type { StreamEvent } from '../../../src/index.js';

/** Reads a model stream to its end. */
export async function drain(events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Reads a model stream and returns what it threw (fails the test when it did not throw). */
export async function drainError(events: AsyncIterable<StreamEvent>): Promise<Error & Record<string, unknown>> {
  try {
    await drain(events);
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('the stream did not fail');
}

/** A sleep that records each wait and returns at once. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}
