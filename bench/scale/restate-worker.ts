import { createServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { Config, ToolRegistry } from '../../src/index.js';
import { agentObject, DEFAULT_SERVICE, type StepTiming } from '../../src/restate.js';
import { collectGarbage } from '../support/measure.js';
import { checkpointTool } from '../workload.js';
import { ForgettingStore } from './forgetting-store.js';
import { defaultLatency } from './latency.js';
import { parseScaleOptions } from './options.js';
import { PacedClient } from './paced-client.js';
import { BARE_SERVICE, stepOverheads, type WorkerMessage, type WorkerReport } from './restate-worker-report.js';
import { ScaleScript } from './scale-workload.js';

const SAMPLE_EVERY_MS = 10;

/** The session number of a session id `r<N>`: the paced model's latency depends on it. */
function sessionNumber(sessionId: string): number {
  const n = Number(sessionId.slice(1));
  if (!Number.isInteger(n)) throw new restate.TerminalError(`bench worker: session id ${sessionId} is not r<N>`);
  return n;
}

/**
 * A worker process of the Restate section of `bench:scale`, forked with an IPC channel: serves
 * the agent's virtual object on the scale workload (a `memory:` store that forgets finished
 * sessions) and the bare service, on PORT, at most MAX_STREAMS invocations per connection. Says `ready`; on `baseline` collects garbage, takes
 * its idle RSS and starts measuring; on `report` sends what it measured since.
 */
async function main(): Promise<void> {
  const send = (message: WorkerMessage): void => {
    process.send?.(message);
  };
  const options = parseScaleOptions(process.argv.slice(2));
  const workload = { toolTurns: options.toolTurns, deltas: options.deltas, latency: defaultLatency(options.seed) };
  const config = new Config({ maxTurns: workload.toolTurns + 1 });
  const registry = new ToolRegistry(config).register(checkpointTool());
  const script = new ScaleScript(workload);
  let timings: StepTiming[] = [];
  let bareStepMs: number[] = [];
  let executions = 0;
  const agent = agentObject({
    store: new ForgettingStore(),
    agent: (sessionId) => {
      executions++;
      return { config, tools: registry, client: new PacedClient(script, workload.latency, sessionNumber(sessionId)) };
    },
    onStep: (timing) => timings.push(timing),
  });
  const bare = restate.service({
    name: BARE_SERVICE,
    handlers: {
      steps: async (ctx: restate.Context, count: number): Promise<number> => {
        for (let i = 0; i < count; i++) {
          const asked = performance.now();
          await ctx.run(`step ${i}`, () => null);
          bareStepMs.push(performance.now() - asked);
        }
        return count;
      },
    },
  });
  const handler = restate.createEndpointHandler({ services: [agent, bare] });
  let inFlight = 0;
  let peakInFlight = 0;
  let idleRss = 0;
  let peakRss = 0;
  const sample = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) peakRss = rss;
  };
  const agentPath = `/invoke/${DEFAULT_SERVICE}/run`;
  // Restate opens another HTTP/2 connection when one is full: with a low limit its invocations
  // spread over the connections, and so over the workers behind the balancer.
  const streams = Number(process.env.MAX_STREAMS ?? 0);
  const server = createServer(
    streams > 0 ? { settings: { maxConcurrentStreams: streams } } : {},
    (request: Http2ServerRequest, response: Http2ServerResponse) => {
      if (request.url.startsWith(agentPath)) {
        inFlight++;
        if (inFlight > peakInFlight) {
          peakInFlight = inFlight;
          sample();
        }
        response.once('close', () => inFlight--);
      }
      handler(request, response);
    },
  );
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
  let sampler: NodeJS.Timeout | undefined;
  let cpu = process.cpuUsage();
  process.on('message', (message: WorkerMessage) => {
    if (message.type === 'baseline') {
      collectGarbage();
      idleRss = process.memoryUsage.rss();
      peakRss = idleRss;
      peakInFlight = inFlight;
      executions = 0;
      timings = [];
      bareStepMs = [];
      clearInterval(sampler);
      sampler = setInterval(sample, SAMPLE_EVERY_MS);
      cpu = process.cpuUsage();
      send({ type: 'baseline-taken' });
    } else if (message.type === 'report') {
      const used = process.cpuUsage(cpu);
      sample();
      const { overheadMs, replayed } = stepOverheads(timings);
      const report: WorkerReport = {
        pid: process.pid,
        idleRssBytes: idleRss,
        peakRssBytes: peakRss,
        peakInFlight,
        executions,
        cpuMs: (used.user + used.system) / 1000,
        stepOverheadMs: overheadMs,
        replayedSteps: replayed,
        bareStepMs,
      };
      send({ type: 'report-taken', report });
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

await main();
