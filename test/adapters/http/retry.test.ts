import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/adapters/http/model-error.js';
import { retryAfterMs } from '../../../src/adapters/http/retry-after.js';
import { backoffDelay, retryPolicy } from '../../../src/adapters/http/retry-policy.js';
import { sleep } from '../../../src/adapters/http/sleep.js';
import { withRetries } from '../../../src/adapters/http/with-retries.js';
import { recordingSleep } from '../support/drain.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMs', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), now)).toBe(4000);
  });

  it('ignores absent or unreadable values, and dates in the past wait nothing', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' }))).toBe(0);
  });
});

describe('backoffDelay', () => {
  it('doubles per retry up to the cap, jittered down by at most a quarter', () => {
    const top = retryPolicy({ random: () => 0 });
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, top))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    const bottom = retryPolicy({ random: () => 0.999999 });
    expect(backoffDelay(1, bottom)).toBe(750);
  });

  it('uses Retry-After as given', () => {
    expect(backoffDelay(0, retryPolicy(), 12_000)).toBe(12_000);
  });
});

describe('withRetries', () => {
  const classify = (error: unknown) => (error instanceof ModelError ? error : new ModelError('stream', String(error)));

  it('retries retryable failures up to maxRetries, then throws the last', async () => {
    const recorder = recordingSleep();
    let attempts = 0;
    const failing = () => {
      attempts++;
      return Promise.reject(new ModelError('server', `boom ${attempts}`, { status: 503 }));
    };
    const policy = retryPolicy({ maxRetries: 3, sleep: recorder.sleep, random: () => 0 });
    await expect(withRetries(failing, { policy, classify })).rejects.toThrow('boom 4');
    expect(recorder.waits).toEqual([500, 1000, 2000]);
  });

  it('does not retry what is not retryable', async () => {
    let attempts = 0;
    const failing = () => {
      attempts++;
      return Promise.reject(new ModelError('authentication', 'no'));
    };
    await expect(withRetries(failing, { policy: retryPolicy(), classify })).rejects.toThrow('no');
    expect(attempts).toBe(1);
  });

  it('reports each retry before waiting', async () => {
    const notices: number[] = [];
    let attempts = 0;
    const flaky = async () => {
      if (++attempts < 3) throw new ModelError('rate_limited', 'slow', { retryAfterMs: 40 });
      return 'ok';
    };
    const policy = retryPolicy({ sleep: recordingSleep().sleep });
    const result = await withRetries(flaky, { policy, classify, onRetry: (n) => notices.push(n.delayMs) });
    expect(result).toBe('ok');
    expect(notices).toEqual([40, 40]);
  });
});

describe('sleep', () => {
  it('rejects at once with the reason when aborted', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
