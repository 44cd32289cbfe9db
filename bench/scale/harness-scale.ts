import { Agent, Config, Session, ToolRegistry } from '../../src/index.js';
import { runAgent } from '../harness-contender.js';
import { checkpointTool } from '../workload.js';
import { PacedClient } from './paced-client.js';
import { expectAnswer, type ScaleContender, ScaleScript, type ScaleWorkload } from './scale-workload.js';

/**
 * agent-harness on the scale workload: one `Config`, `ToolRegistry` and script shared by every
 * session (as a server would), a new `Session`, `Agent` and paced client per session, and every
 * event of `agent.run()` consumed.
 */
export function harnessScaleContender(workload: ScaleWorkload): ScaleContender {
  const config = new Config({ maxTurns: workload.toolTurns + 1 });
  const registry = new ToolRegistry(config).register(checkpointTool());
  const script = new ScaleScript(workload);
  return {
    name: 'agent-harness',
    async run(session) {
      const client = new PacedClient(script, workload.latency, session);
      const agent = new Agent(config, { session: new Session(config, { client, registry }) });
      const { answer, turns } = await runAgent(agent);
      return expectAnswer(this.name, workload, answer, turns);
    },
  };
}
