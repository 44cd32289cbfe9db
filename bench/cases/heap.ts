import { Agent, Config, Session, ToolRegistry } from '../../src/index.js';
import { bareLoop } from '../bare-loop.js';
import { GatedClient } from '../gated-client.js';
import { newAgent, runAgent, sharedSetup } from '../harness-contender.js';
import { LeanClient } from '../lean-client.js';
import { canCollectGarbage, collectGarbage } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';
import { checkpointTool, PROMPT } from '../workload.js';

const TOOL_TURNS = 10;

/** Heap bytes per item: builds `count` items, keeps them referenced, and compares full-GC heaps. */
async function bytesPerItem(count: number, make: () => Promise<unknown> | unknown): Promise<number> {
  const kept: unknown[] = new Array(count);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) kept[i] = await make();
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== count) throw new Error('unreachable: keeps the items alive until measured');
  return (after - before) / count;
}

/** Heap bytes per session held mid-run (waiting for its 6th model request of 11). */
async function inFlightBytes(count: number): Promise<number> {
  const client = new GatedClient(TOOL_TURNS, 6);
  const config = new Config({ maxTurns: TOOL_TURNS + 1 });
  const registry = new ToolRegistry(config).register(checkpointTool());
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const runs = Array.from({ length: count }, () =>
    runAgent(new Agent(config, { client, tools: registry, session: new Session(config) })),
  );
  await new Promise((resolve) => setImmediate(resolve)); // the runs reach the gate in microtasks
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (client.waiting !== count) throw new Error(`in-flight heap: ${client.waiting} of ${count} runs reached the gate`);
  client.open();
  await Promise.all(runs);
  return (after - before) / count;
}

async function samplesOf(settings: BenchSettings, make: () => Promise<unknown> | unknown): Promise<number[]> {
  await bytesPerItem(settings.heapSessions, make); // warm-up
  const figures: number[] = [];
  for (let i = 0; i < settings.batchSamples; i++) figures.push(await bytesPerItem(settings.heapSessions, make));
  return figures;
}

/** Case 3: heap per finished 10-turn session kept referenced, and per idle session. */
export async function heapCase(settings: BenchSettings): Promise<ResultRow[]> {
  if (!canCollectGarbage()) {
    console.error('  case 3 skipped: needs node --expose-gc');
    return [];
  }
  const shared = sharedSetup(TOOL_TURNS);
  const finished = async (): Promise<Agent> => {
    const agent = newAgent(shared);
    await runAgent(agent);
    return agent;
  };
  const client = new LeanClient(TOOL_TURNS);
  const config = new Config({ maxTurns: TOOL_TURNS + 1 });
  const rows: ResultRow[] = [];
  const finishedHarness = summarise(await samplesOf(settings, finished));
  rows.push({
    case: '3 heap, finished T=10 session',
    impl: 'agent-harness',
    metric: 'bytes/session (Agent kept)',
    summary: finishedHarness,
    target: '≤ 8,192',
    met: finishedHarness.median <= 8192,
  });
  rows.push({
    case: '3 heap, finished T=10 session',
    impl: 'agent-harness',
    metric: 'bytes/session (Session kept)',
    summary: summarise(await samplesOf(settings, async () => (await finished()).session)),
  });
  rows.push({
    case: '3 heap, finished T=10 session',
    impl: 'bare loop',
    metric: 'bytes/session (messages kept)',
    summary: summarise(await samplesOf(settings, () => bareLoop(client, PROMPT, TOOL_TURNS + 1))),
  });
  await inFlightBytes(settings.heapSessions); // warm-up
  const inFlight: number[] = [];
  for (let i = 0; i < settings.batchSamples; i++) inFlight.push(await inFlightBytes(settings.heapSessions));
  rows.push({
    case: '3 heap, in-flight session',
    impl: 'agent-harness',
    metric: 'bytes/session (held at turn 6 of 11)',
    summary: summarise(inFlight),
  });
  rows.push({
    case: '3 heap, idle session',
    impl: 'agent-harness',
    metric: 'bytes/session (Agent + Session)',
    summary: summarise(await samplesOf(settings, () => newAgent(shared))),
  });
  rows.push({
    case: '3 heap, idle session',
    impl: 'agent-harness',
    metric: 'bytes/session (Session only)',
    summary: summarise(await samplesOf(settings, () => new Session(config))),
  });
  console.error(`  3 heap: ${finishedHarness.median.toFixed(0)} bytes per finished session`);
  return rows;
}
