import { Agent } from '../../agent/agent.js';
import { Config } from '../../config/config.js';
import type { AgentEvent } from '../../core/agent-event.js';
import type { Session } from '../../session/session.js';
import { agentTool } from '../../subagents/agent-tool.js';
import { handoffTool } from '../../subagents/handoff-tool.js';
import type { ToolLike } from '../../tools/tool.js';
import { type ScriptedToolSpec, scriptedRegistry, type ToolExecution } from './scripted-tools.js';
import { turnOfMessages, WalkModel } from './walk-model.js';
import type { RuntimeScenario, WalkAgents } from './walk-types.js';

/** The main agent's assistant turns recorded so far: the script's next turn (a summary is not one). */
function recordedTurns(session: Session): number {
  let turns = 0;
  for (const entry of session.journal) if (entry.type === 'assistant_message') turns++;
  return turns;
}

/** The configuration a scenario runs with. */
export function scenarioConfig(scenario: RuntimeScenario): Config {
  return new Config(scenario.config ?? {});
}

/** The tools of the main agent beside its scripted ones: its handoffs and its sub-agent. */
function extraTools(scenario: RuntimeScenario, log: ToolExecution[]): ToolLike[] {
  const tools: ToolLike[] = [];
  for (const handoff of scenario.handoffs ?? []) {
    const config = new Config(scenario.config ?? {});
    const registry = scriptedRegistry(config, handoff.tools, log);
    tools.push(handoffTool({ agent: { name: handoff.name, instructions: handoff.instructions, registry } }));
  }
  const sub = scenario.subAgent;
  if (sub !== undefined) {
    const config = new Config(sub.config ?? {});
    tools.push(
      agentTool({
        name: sub.name,
        description: `sub-agent ${sub.name}`,
        config,
        client: new WalkModel(sub.script, turnOfMessages, () => 0),
        registry: scriptedRegistry(config, sub.tools ?? [], log, { owner: sub.name }),
      }),
    );
  }
  return tools;
}

/** The main agent of a scenario on `session`, its model recording requests and its tools logging executions. */
export function scenarioAgent(
  scenario: RuntimeScenario,
  config: Config,
  session: Session,
  log: ToolExecution[],
): { agent: Agent; model: WalkModel } {
  const model = new WalkModel(
    scenario.script,
    () => recordedTurns(session),
    () => session.journalLength,
  );
  const tools = scriptedRegistry(config, scenario.tools ?? [], log, { extra: extraTools(scenario, log) });
  const agent = new Agent(config, { session, client: model, tools });
  const approve = scenario.approvals !== 'deny';
  agent.events.subscribe((event: AgentEvent) => {
    if (event.type !== 'tool_approval_request') return;
    if (approve) agent.approve(event.data.callId);
    else agent.deny(event.data.callId, 'denied by the walk');
  });
  return { agent, model };
}

/** Every scripted tool of a scenario, by name. */
export function scenarioTools(scenario: RuntimeScenario): Map<string, ScriptedToolSpec> {
  const specs = [
    ...(scenario.tools ?? []),
    ...(scenario.handoffs ?? []).flatMap((handoff) => handoff.tools),
    ...(scenario.subAgent?.tools ?? []),
  ];
  return new Map(specs.map((spec) => [spec.name, spec]));
}

/** The scenario's agents: `main` and each handoff target, with their instructions and tool names. */
export function scenarioAgents(scenario: RuntimeScenario, config: Config): WalkAgents {
  const main = [
    ...(scenario.tools ?? []).map((spec) => spec.name),
    ...(scenario.handoffs ?? []).map((handoff) => `transfer_to_${handoff.name}`),
    ...(scenario.subAgent === undefined ? [] : [scenario.subAgent.name]),
  ];
  const agents = new Map<string, { instructions: string | undefined; tools: readonly string[] }>([
    ['main', { instructions: config.systemPrompt, tools: main }],
  ]);
  for (const handoff of scenario.handoffs ?? [])
    agents.set(handoff.name, { instructions: handoff.instructions, tools: handoff.tools.map((spec) => spec.name) });
  return agents;
}
