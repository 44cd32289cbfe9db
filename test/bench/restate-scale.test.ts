import { describe, expect, it } from 'vitest';
import { ForgettingStore } from '../../bench/scale/forgetting-store.js';
import { selectedSections } from '../../bench/scale/options.js';
import { DEFAULT_RESTATE_OPTIONS, parseRestateOptions } from '../../bench/scale/restate-options.js';
import { streamsPerConnection } from '../../bench/scale/restate-section.js';
import { type RestateRaw, restateFigures, restateTable } from '../../bench/scale/restate-table.js';
import { rssPerInFlight, stepOverheads, type WorkerReport } from '../../bench/scale/restate-worker-report.js';

describe('parseRestateOptions', () => {
  it('defaults to 1, 2 and 4 workers with 50 runs in flight per worker', () => {
    expect(parseRestateOptions([])).toEqual(DEFAULT_RESTATE_OPTIONS);
    expect(DEFAULT_RESTATE_OPTIONS).toMatchObject({ workers: [1, 2, 4], inFlightPerWorker: 50 });
  });

  it('reads the runs, the runs in flight per worker, the worker counts and the bare steps', () => {
    expect(
      parseRestateOptions([
        '--restate-runs',
        '300',
        '--restate-in-flight=30',
        '--restate-workers',
        '2, 3',
        '--restate-bare-steps=5',
      ]),
    ).toEqual({ runs: 300, inFlightPerWorker: 30, workers: [2, 3], bareSteps: 5 });
  });

  it('refuses a count below one', () => {
    expect(() => parseRestateOptions(['--restate-runs=0'])).toThrow(/--restate-runs must be a whole number ≥ 1/);
    expect(() => parseRestateOptions(['--restate-workers=1,0'])).toThrow(/--restate-workers/);
  });
});

describe('selectedSections', () => {
  const all = ['in-process', 'restate'];

  it('runs every section without --only, and only the named ones, in their order, with it', () => {
    expect(selectedSections([], all)).toEqual(all);
    expect(selectedSections(['--only', 'restate'], all)).toEqual(['restate']);
    expect(selectedSections(['--only=restate,in-process'], all)).toEqual(all);
  });

  it('refuses an unknown section, naming the known ones', () => {
    expect(() => selectedSections(['--only', 'cloud'], all)).toThrow(
      /unknown section cloud \(sections: in-process, restate\)/,
    );
  });
});

function report(overrides: Partial<WorkerReport> = {}): WorkerReport {
  return {
    pid: 1,
    idleRssBytes: 100 * 1024 * 1024,
    peakRssBytes: 110 * 1024 * 1024,
    peakInFlight: 50,
    executions: 500,
    cpuMs: 2000,
    stepOverheadMs: [2, 4, 6],
    replayedSteps: 0,
    bareStepMs: [1, 2, 3],
    ...overrides,
  };
}

describe('stepOverheads', () => {
  it('takes each live step’s time beyond its action, and counts replayed steps apart', () => {
    expect(
      stepOverheads([
        { step: '#1 begin', ms: 5, actionMs: 1 },
        { step: '#2 model turn', ms: 40, actionMs: 37.5 },
        { step: '#3 tool call_1', ms: 3 },
      ]),
    ).toEqual({ overheadMs: [4, 2.5], replayed: 1 });
  });

  it('never reads below zero when timer resolution puts the action past the step', () => {
    expect(stepOverheads([{ step: '#1 begin', ms: 1, actionMs: 1.01 }]).overheadMs).toEqual([0]);
  });
});

describe('rssPerInFlight', () => {
  it('divides the growth over idle by the runs in flight at the peak', () => {
    expect(rssPerInFlight(report())).toBe((10 * 1024 * 1024) / 50);
    expect(rssPerInFlight(report({ peakRssBytes: 90 }))).toBe(0);
  });

  it('has no figure for a worker that ran nothing', () => {
    expect(rssPerInFlight(report({ peakInFlight: 0 }))).toBeUndefined();
  });
});

describe('restateFigures and restateTable', () => {
  const raw = (workers: number, bare: number[]): RestateRaw => ({
    workers,
    inFlight: 50 * workers,
    turnsPerRun: 4,
    load: { runs: 1000, wallMs: 8000, runMs: [100, 200, 300] },
    reports: Array.from({ length: workers }, () => report({ bareStepMs: bare })),
    bareAloneMs: [1, 1, 2],
    stepAloneMs: [3, 3, 4],
  });

  it('pools the workers’ steps, and gives throughput, the step ratio, CPU per turn and RSS per worker', () => {
    const figures = restateFigures(raw(2, [1, 2, 3]));
    expect(figures).toMatchObject({
      turns: 4000,
      turnsPerSecond: 500,
      steps: 6,
      stepP50Ms: 4,
      stepP99Ms: 6,
      bareSteps: 6,
      bareP50Ms: 2,
      stepRatio: 2,
      runP50Ms: 200,
      bareAloneP50Ms: 1,
      stepAloneP50Ms: 3,
      stepAloneRatio: 3,
      workerCpuPerTurnUs: 1000,
      executions: [500, 500],
      replayedSteps: 0,
    });
    expect(figures.rssPerRunBytes).toEqual([(10 * 1024 * 1024) / 50, (10 * 1024 * 1024) / 50]);
  });

  it('puts one column per worker count and says by how much the step target is missed', () => {
    const table = restateTable([restateFigures(raw(1, [1, 2, 3])), restateFigures(raw(2, [1, 1, 1]))]);
    expect(table).toContain('| measure | 1 worker | 2 workers |');
    expect(table).toContain('| throughput, turns/s | 500.0 | 500.0 |');
    expect(table).toContain('| harness p50 / bare p50 | 2.00×: ≤ 2× ✅ | 4.00×: ≤ 2× ❌ (2.00× the target) |');
    expect(table).toContain('| RSS per in-flight run, KB (per worker) | 205 | 205 / 205 |');
    expect(table).toContain('| executions per worker | 500 | 500 / 500 |');
    expect(table).toContain('| alone: harness p50 / bare p50 | 3.00× | 3.00× |');
  });

  it('marks a worker that had no run in flight instead of dividing by zero', () => {
    const idle = { ...raw(2, [1]), reports: [report(), report({ peakInFlight: 0, executions: 0 })] };
    const figures = restateFigures(idle);
    expect(figures.rssPerRunBytes).toEqual([(10 * 1024 * 1024) / 50, null]);
    expect(restateTable([figures])).toContain('| RSS per in-flight run, KB (per worker) | 205 / – |');
  });
});

describe('ForgettingStore', () => {
  it('holds a session while its writer is open and forgets it once closed', async () => {
    const store = new ForgettingStore();
    const writer = await store.openWriter('s1');
    await writer.append([{ type: 'user', content: 'hi' }]);
    expect(writer.length).toBe(1);
    expect((await store.read('s1')).entries).toEqual([{ type: 'user', content: 'hi' }]);
    expect((await store.list()).map((summary) => summary.id)).toEqual(['s1']);
    expect(store.size).toBe(1);
    await writer.close();
    expect(store.size).toBe(0);
    await expect(store.read('s1')).rejects.toMatchObject({ reason: 'session_not_found' });
  });

  it('keeps the single-writer lock of a session', async () => {
    const store = new ForgettingStore();
    await store.openWriter('s1');
    await expect(store.openWriter('s1')).rejects.toMatchObject({ reason: 'session_locked' });
    await store.close();
    expect(store.size).toBe(0);
  });
});

describe('streamsPerConnection', () => {
  it('lets a worker take a fifth of its runs per connection, at least one', () => {
    expect(streamsPerConnection(50)).toBe(10);
    expect(streamsPerConnection(3)).toBe(1);
  });
});
