/** The model's latency per turn: uniform in [minMs, maxMs], drawn from a seed. */
export interface LatencyModel {
  readonly seed: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** The brief's model: 20–50 ms per turn. */
export function defaultLatency(seed: number): LatencyModel {
  return { seed, minMs: 20, maxMs: 50 };
}

/** A 32-bit integer hash (splitmix32's finaliser): neighbouring inputs give unrelated outputs. */
function mix(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The latency of turn `turn` (1-based) of session `session`: a pure function of the seed, the
 * session and the turn, so every contender waits the same times whatever order its requests
 * arrive in.
 */
export function latencyMs(model: LatencyModel, session: number, turn: number): number {
  const hash = mix(mix(mix(model.seed) ^ session) ^ turn);
  return model.minMs + (hash / 0x1_0000_0000) * (model.maxMs - model.minMs);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
