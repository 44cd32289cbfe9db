import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../../bench/scale/capacity.js';
import { capacityFigures, capacityTable, verdict } from '../../bench/scale/capacity-table.js';
import { lagSummary } from '../../bench/scale/lag.js';
import { largestPassing } from '../../bench/scale/largest-passing.js';
import { defaultLatency, latencyMs } from '../../bench/scale/latency.js';
import { DEFAULT_SCALE_OPTIONS, parseScaleOptions, scaleFlags } from '../../bench/scale/options.js';
import { finalAnswerText, ScaleScript, stepOfLength, toolTurnText } from '../../bench/scale/scale-workload.js';
import { arrivalsDue, type StaggeredResult } from '../../bench/scale/staggered.js';
import { maxInFlightLines, staggeredFigures, staggeredTable } from '../../bench/scale/staggered-table.js';

describe('latencyMs', () => {
  const model = defaultLatency(7);

  it('is a pure function of seed, session and turn, within [min, max]', () => {
    for (let session = 0; session < 200; session++) {
      for (let turn = 1; turn <= 4; turn++) {
        const ms = latencyMs(model, session, turn);
        expect(ms).toBe(latencyMs(defaultLatency(7), session, turn));
        expect(ms).toBeGreaterThanOrEqual(20);
        expect(ms).toBeLessThan(50);
      }
    }
  });

  it('spreads evenly over the range, and another seed draws other times', () => {
    const draws = Array.from({ length: 10_000 }, (_, i) => latencyMs(model, i, 1));
    const mean = draws.reduce((sum, ms) => sum + ms, 0) / draws.length;
    expect(mean).toBeGreaterThan(34);
    expect(mean).toBeLessThan(36);
    const lowThird = draws.filter((ms) => ms < 30).length / draws.length;
    expect(lowThird).toBeGreaterThan(0.31);
    expect(lowThird).toBeLessThan(0.36);
    expect(latencyMs(defaultLatency(8), 0, 1)).not.toBe(latencyMs(model, 0, 1));
    expect(latencyMs(model, 0, 2)).not.toBe(latencyMs(model, 0, 1));
  });
});

describe('ScaleScript', () => {
  const workload = { toolTurns: 2, deltas: 5, latency: defaultLatency(1) };
  const textOf = (step: number): string =>
    new ScaleScript(workload)
      .eventsFor(step)
      .filter((event) => event.type === 'text_delta')
      .map((event) => (typeof event.textDelta === 'string' ? event.textDelta : event.textDelta?.content))
      .join('');

  it('streams `deltas` text deltas per answer, then the tool call on tool turns', () => {
    const script = new ScaleScript(workload);
    const turn = script.eventsFor(1);
    expect(turn.map((event) => event.type)).toEqual([
      ...Array(5).fill('text_delta'),
      'tool_call_complete',
      'message_complete',
    ]);
    expect(turn[5]?.toolCall).toEqual({ callId: 'call_1', name: 'checkpoint', arguments: { step: 1 } });
    expect(textOf(1)).toBe(toolTurnText(5));
    expect(script.eventsFor(1)).toBe(turn);
  });

  it('ends with the final answer, whose last delta is `complete`', () => {
    const final = new ScaleScript(workload).eventsFor(3);
    expect(final.map((event) => event.type)).toEqual([...Array(5).fill('text_delta'), 'message_complete']);
    expect(textOf(3)).toBe(finalAnswerText(5));
    expect(finalAnswerText(5)).toBe('word word word word complete');
  });

  it('reads the step off the context: the prompt, then two messages per step', () => {
    expect([1, 3, 5].map(stepOfLength)).toEqual([1, 2, 3]);
  });
});

describe('parseScaleOptions', () => {
  it('defaults to 10,000 sessions of three tool turns and 50 deltas, with the peer', () => {
    expect(parseScaleOptions([])).toEqual(DEFAULT_SCALE_OPTIONS);
    expect(DEFAULT_SCALE_OPTIONS).toMatchObject({ sessions: 10_000, toolTurns: 3, deltas: 50, peer: true });
  });

  it('reads `--name N`, `--name=N`, SCALE_SESSIONS, --no-peer and --no-floor; a flag wins over the variable', () => {
    expect(parseScaleOptions(['--sessions', '1000', '--seed=9', '--no-peer'])).toMatchObject({
      sessions: 1000,
      seed: 9,
      peer: false,
      floor: true,
    });
    expect(parseScaleOptions(['--no-floor'])).toMatchObject({ peer: true, floor: false });
    expect(parseScaleOptions([], { SCALE_SESSIONS: '2_000' }).sessions).toBe(2000);
    expect(parseScaleOptions(['--sessions=5'], { SCALE_SESSIONS: '2000' }).sessions).toBe(5);
  });

  it('refuses what is not a whole number in range', () => {
    expect(() => parseScaleOptions(['--sessions', '0'])).toThrow(/--sessions must be a whole number ≥ 1/);
    expect(() => parseScaleOptions(['--deltas=2.5'])).toThrow(/--deltas/);
    expect(() => parseScaleOptions(['--sessions'])).toThrow(/--sessions needs a value/);
  });

  it('reads the staggered flags and --modes; refuses an unknown mode', () => {
    expect(parseScaleOptions(['--arrival=500', '--window-ms', '2000', '--modes', 'max-n,burst'])).toMatchObject({
      arrival: 500,
      windowMs: 2000,
      modes: ['max-n', 'burst'],
    });
    expect(DEFAULT_SCALE_OPTIONS.modes).toEqual(['burst', 'staggered', 'max-n']);
    expect(() => parseScaleOptions(['--modes=burst,steady'])).toThrow(/unknown --modes steady/);
    expect(() => parseScaleOptions(['--arrival=0'])).toThrow(/--arrival must be a whole number ≥ 1/);
  });

  it('round-trips through scaleFlags', () => {
    const options = {
      sessions: 3,
      seed: 4,
      toolTurns: 0,
      deltas: 2,
      peer: false,
      floor: false,
      arrival: 7,
      windowMs: 9,
      modes: ['staggered' as const],
    };
    expect(parseScaleOptions(scaleFlags(options))).toEqual(options);
  });
});

describe('lagSummary', () => {
  const histogram = (values: Record<number, number>, extra: { max: number; mean: number; count?: number }) => ({
    min: 0,
    ...extra,
    percentile: (p: number) => values[p] ?? Number.NaN,
  });

  it('turns nanoseconds into milliseconds of lag past the timer period', () => {
    const summary = lagSummary(histogram({ 50: 1_200_000, 99: 31_000_000 }, { max: 40_000_000, mean: 3_000_000 }), 1);
    expect(summary.p50).toBeCloseTo(0.2);
    expect(summary).toMatchObject({ p99: 30, max: 39, mean: 2 });
  });

  it('never reads below zero, and reads an empty histogram as zeros', () => {
    expect(lagSummary(histogram({ 50: 500_000, 99: 900_000 }, { max: 900_000, mean: 600_000 }), 1).p99).toBe(0);
    expect(lagSummary(histogram({}, { max: 0, mean: Number.NaN, count: 0 }), 1)).toEqual({
      p50: 0,
      p99: 0,
      max: 0,
      mean: 0,
    });
  });
});

describe('capacityTable', () => {
  const result = (contender: string, cpuMs: number, rssKb: number, p99: number): CapacityResult => ({
    contender,
    sessions: 1000,
    turns: 4000,
    peakInFlight: 1000,
    wallMs: 2500,
    cpuMs,
    rssGrowthBytes: rssKb * 1024 * 1000,
    heapGrowthBytes: 2 * rssKb * 1024 * 1000,
    lag: { p50: 1, p99, max: 2 * p99, mean: 1 },
  });

  it('divides growth by the sessions in flight and CPU by the turns', () => {
    expect(capacityFigures(result('h', 400, 12, 5))).toEqual({
      rssPerSessionBytes: 12 * 1024,
      heapPerSessionBytes: 24 * 1024,
      cpuPerTurnUs: 100,
    });
  });

  it('says by how much a target is missed', () => {
    expect(verdict(15, 20, true, ' ms')).toBe('≤ 20 ms ✅');
    expect(verdict(30, 20, true, ' ms')).toBe('≤ 20 ms ❌ (1.50× the target)');
    expect(verdict(1.5, 3, false, '×')).toBe('≥ 3× ❌ (0.50× of the target)');
  });

  it('puts the harness beside the peer, with each target next to the harness figure', () => {
    const table = capacityTable({ harness: result('agent-harness', 400, 12, 5), peer: result('ai', 1600, 50, 40) });
    expect(table).toContain('| measure | agent-harness | ai | target |');
    expect(table).toContain('| RSS per in-flight session, KB | 12.0 | 50.0 | ≤ 20 KB ✅ |');
    expect(table).toContain('| event-loop lag p99, ms | 5.0 | 40.0 | ≤ 20 ms ✅ |');
    expect(table).toContain('| peer CPU per turn / harness |  | 4.00× | ≥ 3× ✅ |');
  });

  it('adds the floor as a last column, outside the peer ratio', () => {
    const table = capacityTable({
      harness: result('agent-harness', 400, 12, 5),
      peer: result('ai', 1600, 50, 40),
      floor: result('bare loop', 100, 8, 2),
    });
    expect(table).toContain('| measure | agent-harness | ai | bare loop | target |');
    expect(table).toContain('| RSS per in-flight session, KB | 12.0 | 50.0 | 8.0 | ≤ 20 KB ✅ |');
    expect(table).toContain('| peer CPU per turn / harness |  | 4.00× |  | ≥ 3× ✅ |');
    const alone = capacityTable({
      harness: result('agent-harness', 400, 12, 5),
      floor: result('bare loop', 100, 8, 2),
    });
    expect(alone).toContain('| measure | agent-harness | bare loop | target |');
    expect(alone).not.toContain('peer CPU');
  });

  it('puts the XState skeleton between the peer and the bare loop, with the peer over it as the ceiling', () => {
    const table = capacityTable({
      harness: result('agent-harness', 400, 12, 5),
      peer: result('ai', 1600, 50, 40),
      skeleton: result('XState skeleton', 200, 10, 3),
      floor: result('bare loop', 100, 8, 2),
    });
    expect(table).toContain('| measure | agent-harness | ai | XState skeleton | bare loop | target |');
    expect(table).toContain('| peer CPU per turn / harness |  | 4.00× |  |  | ≥ 3× ✅ |');
    expect(table).toContain(
      '| peer CPU per turn / XState skeleton (the ceiling of a loop on XState) |  |  | 8.00× |  |  |',
    );
    const noPeer = capacityTable({
      harness: result('agent-harness', 400, 12, 5),
      skeleton: result('XState skeleton', 200, 10, 3),
    });
    expect(noPeer).not.toContain('ceiling');
  });

  it('leaves the peer column and ratio out when no peer ran', () => {
    const table = capacityTable({ harness: result('agent-harness', 400, 30, 25) });
    expect(table).toContain('| measure | agent-harness | target |');
    expect(table).toContain('≤ 20 KB ❌ (1.50× the target)');
    expect(table).not.toContain('peer CPU');
  });
});

describe('arrivalsDue', () => {
  it('starts one session at once, then `perSecond` a second, catching up after a stall', () => {
    expect(arrivalsDue(2000, 0)).toBe(1);
    expect(arrivalsDue(2000, 4.9)).toBe(10);
    expect(arrivalsDue(2000, 1000)).toBe(2001);
    expect(arrivalsDue(100, 250)).toBe(26);
  });
});

describe('largestPassing', () => {
  const upTo = (threshold: number) => {
    const tried: number[] = [];
    const trial = async (n: number) => {
      tried.push(n);
      return { passed: n <= threshold, detail: n };
    };
    return { trial, tried };
  };

  it('doubles until a size fails, then narrows to within the resolution', async () => {
    const { trial, tried } = upTo(300);
    const { largest, probes } = await largestPassing(trial, 32, 10_000, 0.1);
    expect(tried.slice(0, 5)).toEqual([32, 64, 128, 256, 512]);
    expect(largest).toBeLessThanOrEqual(300);
    expect(largest).toBeGreaterThanOrEqual(300 / 1.1);
    expect(probes.map((p) => p.n)).toEqual(tried);
    expect(probes.every((p) => p.passed === p.n <= 300)).toBe(true);
  });

  it('narrows to the exact size with a resolution of 0, below the first probe too', async () => {
    expect((await largestPassing(upTo(13).trial, 32, 1000, 0)).largest).toBe(13);
    expect((await largestPassing(upTo(0).trial, 32, 1000, 0)).largest).toBe(0);
  });

  it('stops at the limit when the limit passes', async () => {
    const { trial, tried } = upTo(1e9);
    expect((await largestPassing(trial, 32, 100)).largest).toBe(100);
    expect(tried).toEqual([32, 64, 100]);
  });
});

describe('staggeredTable', () => {
  const result = (contender: string, cpuMs: number, rssKb: number, p99: number, lagSamples = 100): StaggeredResult => ({
    contender,
    inFlight: 1000,
    arrivalPerSecond: 2000,
    rampMs: 700,
    minInFlight: 1000,
    windowMs: 2000,
    turns: 4000,
    cpuMs,
    rssGrowthBytes: rssKb * 1024 * 1000,
    heapGrowthBytes: 2 * rssKb * 1024 * 1000,
    lag: { p50: 1, p99, max: 2 * p99, mean: 1 },
    lagSamples,
  });

  it('divides by the sessions in flight, the turns and the window', () => {
    expect(staggeredFigures(result('h', 400, 12, 5))).toEqual({
      rssPerSessionBytes: 12 * 1024,
      heapPerSessionBytes: 24 * 1024,
      cpuPerTurnUs: 100,
      turnsPerSecond: 2000,
    });
  });

  it('gives no memory per session when the window did not hold the sessions asked for', () => {
    const gaveUp = { ...result('h', 400, 12, 5), minInFlight: 250 };
    expect(staggeredFigures(gaveUp).rssPerSessionBytes).toBeNaN();
    const table = staggeredTable({ harness: gaveUp, floor: result('bare loop', 100, 8, 2) });
    expect(table).toContain(
      '| RSS per in-flight session, KB | not held | 8.0 | ≤ 20 KB: not measured (1,000 not held) |',
    );
    expect(table).toContain('| heapUsed per in-flight session, KB | not held | 16.0 |  |');
  });

  it('puts the targets beside the harness and the CPU ratio in its own row', () => {
    const table = staggeredTable({ harness: result('agent-harness', 400, 12, 5), peer: result('ai', 1600, 50, 40) });
    expect(table).toContain('| RSS per in-flight session, KB | 12.0 | 50.0 | ≤ 20 KB ✅ |');
    expect(table).toContain('| event-loop lag p99, ms | 5.0 | 40.0 | ≤ 20 ms ✅ |');
    expect(table).toContain('| peer CPU per turn / harness |  | 4.00× | ≥ 3× ✅ |');
    const floored = staggeredTable({
      harness: result('agent-harness', 400, 12, 5),
      peer: result('ai', 1600, 50, 40),
      floor: result('bare loop', 100, 8, 2),
    });
    expect(floored).toContain('| event-loop lag p99, ms | 5.0 | 40.0 | 2.0 | ≤ 20 ms ✅ |');
    expect(floored).toContain('| peer CPU per turn / harness |  | 4.00× |  | ≥ 3× ✅ |');
  });

  it('reads a window without a lag sample as a miss, not as zero lag', () => {
    const table = staggeredTable({ harness: result('agent-harness', 400, 12, 0, 0) });
    expect(table).toContain(
      '| event-loop lag p99, ms | no sample in 2.0 s | ≤ 20 ms ❌ (its 1 ms timer fired at most once in the window) |',
    );
  });

  it('lists the largest N within the lag target and the probes', () => {
    const probe = (n: number, p99: number) => ({ n, passed: p99 <= 20, detail: result('h', 1, 1, p99) });
    const lines = maxInFlightLines([
      { contender: 'h', largest: 64, limit: 10_000, probes: [probe(32, 3), probe(64, 12), probe(128, 80)] },
      { contender: 'p', largest: 100, limit: 100, probes: [probe(100, 4)] },
    ]);
    expect(lines).toContain(
      '- h: largest N in flight with steady p99 lag ≤ 20 ms: **64** (probes, N: p99 ms: 32: 3.0 ✓, 64: 12.0 ✓, 128: 80.0 ✗)',
    );
    expect(lines).toContain('**≥ 100 (the limit)**');
  });
});
