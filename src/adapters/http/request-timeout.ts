import { HarnessError } from '../../core/errors.js';

/** A request time-out in whole milliseconds (the SDKs insist on integers). Default 120000. */
export function requestTimeout(ms: number | undefined): number {
  if (ms === undefined) return 120_000;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
    throw new HarnessError('invalid_config', `timeoutMs must be a positive number, got ${String(ms)}`);
  }
  return Math.ceil(ms);
}
