import { Agent, type Config, type ModelClient, ToolRegistry } from '../../src/index.js';
import { type Cassette, recordCassette, replayCassette } from '../../src/testing/index.js';
import { newAgent, runAgent, sharedSetup } from '../harness-contender.js';
import { unitsPerSecond } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';
import { checkpointTool } from '../workload.js';

/** Model turns of the recorded run: 999 tool turns and the answer. */
const TURNS = 1000;

async function record(): Promise<{ cassette: Cassette; config: Config }> {
  const shared = sharedSetup(TURNS - 1);
  const recorder = recordCassette('unused', shared.client);
  const agent = new Agent(shared.config, { client: recorder, tools: shared.registry });
  await runAgent(agent);
  return { cassette: recorder.cassette(agent.session), config: shared.config };
}

/**
 * Case 8: replaying a 1,000-turn cassette (requests matched, answers and tool results served,
 * journal compared) against the in-memory run of the same 1,000 turns, in turns per second.
 * Target (issue 32): replay takes under 2× the time of the run.
 */
export async function cassetteReplayCase(settings: BenchSettings): Promise<ResultRow[]> {
  const { cassette, config } = await record();
  const plan = { warmup: 1, samples: settings.samples, unitsPerSample: TURNS };
  const shared = sharedSetup(TURNS - 1);
  const run = summarise(await unitsPerSecond(async () => (await runAgent(newAgent(shared))).turns, plan));
  const makeAgent = (client: ModelClient) =>
    // A registry per replay: recorded tools answer through it.
    new Agent(config, { client, tools: new ToolRegistry(config).register(checkpointTool()) });
  const replay = summarise(
    await unitsPerSecond(async () => {
      const report = await replayCassette(cassette, { makeAgent });
      if (!report.ok) throw new Error(`cassette replay diverged: ${report.divergence?.message}`);
      return TURNS;
    }, plan),
  );
  const ratio = run.median / replay.median;
  const label = `8 cassette replay ${TURNS.toLocaleString('en-US')} turns`;
  console.error(
    `  ${label}: run ${run.median.toFixed(0)} turns/s, replay ${replay.median.toFixed(0)} turns/s (${ratio.toFixed(2)}×)`,
  );
  return [
    { case: label, impl: 'agent-harness', metric: 'turns/s (in-memory run)', summary: run },
    {
      case: label,
      impl: 'agent-harness',
      metric: 'turns/s (replayCassette)',
      summary: replay,
      target: '< 2× the run time',
      met: ratio < 2,
      note: `replay takes ${ratio.toFixed(2)}× the run's time`,
    },
  ];
}
