import { AgentEvent, EventBus, type Subscriber } from '../../src/index.js';
import { newAgent, runAgent, sharedSetup } from '../harness-contender.js';
import { unitsPerSecond } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

const EVENT = AgentEvent.textDelta('x');
const SLOW_MS = 1;

/** Emits `count` events one after another, awaiting each (as the loop does). */
async function emitAll(bus: EventBus, count: number): Promise<number> {
  for (let i = 0; i < count; i++) await bus.emit(EVENT);
  return count;
}

/** The floor: an array of subscriber functions, each awaited in turn. */
async function bareEmitAll(subscribers: readonly Subscriber[], count: number): Promise<number> {
  for (let i = 0; i < count; i++) for (const subscriber of subscribers) await subscriber(EVENT);
  return count;
}

/** Three subscribers that each count the events they see. */
function counters(): Subscriber[] {
  const seen = [0, 0, 0];
  return seen.map((_, i) => () => {
    seen[i] = (seen[i] ?? 0) + 1;
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Wall ms of one harness T=10 run with an extra subscriber, and how many events it saw. */
async function timedRun(subscriber: Subscriber | undefined): Promise<{ ms: number; events: number }> {
  const agent = newAgent(sharedSetup(10));
  let events = 0;
  agent.events.subscribe(async (event) => {
    events++;
    await subscriber?.(event);
  });
  const start = performance.now();
  await runAgent(agent);
  return { ms: performance.now() - start, events };
}

/** Case 4: EventBus throughput with 3 subscribers, and what one slow async subscriber costs a run. */
export async function eventBusCase(settings: BenchSettings): Promise<ResultRow[]> {
  const plan = { warmup: 1, samples: settings.samples, unitsPerSample: settings.busEvents };
  const bus = new EventBus();
  for (const subscriber of counters()) bus.subscribe(subscriber);
  const busRate = summarise(await unitsPerSecond(() => emitAll(bus, settings.busEvents), plan));
  const bare = counters();
  const bareRate = summarise(await unitsPerSecond(() => bareEmitAll(bare, settings.busEvents), plan));
  const asyncBus = new EventBus();
  for (const subscriber of counters().slice(1)) asyncBus.subscribe(subscriber);
  asyncBus.subscribe(() => new Promise<void>((resolve) => setImmediate(resolve)));
  const asyncPlan = { ...plan, unitsPerSample: Math.round(settings.busEvents / 10) };
  const asyncRate = summarise(await unitsPerSecond(() => emitAll(asyncBus, asyncPlan.unitsPerSample), asyncPlan));
  const rows: ResultRow[] = [
    { case: '4 EventBus, 3 subscribers', impl: 'agent-harness', metric: 'events/s', summary: busRate },
    { case: '4 EventBus, 3 subscribers', impl: 'bare loop', metric: 'events/s (awaited calls)', summary: bareRate },
    {
      case: '4 EventBus, 3 subscribers',
      impl: 'agent-harness',
      metric: 'events/s',
      summary: asyncRate,
      note: 'one subscriber yields a macrotask per event',
    },
  ];
  const fast: number[] = [];
  const slow: number[] = [];
  let events = 0;
  await timedRun(undefined);
  for (let i = 0; i < settings.samples; i++) {
    fast.push((await timedRun(undefined)).ms);
    const run = await timedRun(() => sleep(SLOW_MS));
    slow.push(run.ms);
    events = run.events;
  }
  const added = summarise(slow.map((ms, i) => (ms - (fast[i] ?? 0)) / events));
  rows.push({
    case: '4 slow subscriber, T=10 run',
    impl: 'agent-harness',
    metric: `added wall ms per event (${events} events)`,
    summary: added,
    note: `subscriber sleeps ${SLOW_MS} ms per event; backpressure makes the run wait for it`,
  });
  console.error(`  4 EventBus: ${busRate.median.toFixed(0)} events/s`);
  return rows;
}
