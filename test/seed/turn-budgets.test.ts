import { describe, expect, it } from 'vitest';
import { type AgentEvent, AgentEventType, type Message, StreamEvent } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

class ProgressClient {
  calls = 0;
  constructor(private readonly requiredSteps: number) {}
  async *chatCompletion(_messages: readonly Message[]) {
    this.calls += 1;
    if (this.calls <= this.requiredSteps) {
      yield StreamEvent.toolCallComplete({
        callId: `call-step-${this.calls}`,
        name: 'checkpoint',
        arguments: { step: this.calls },
      });
      yield StreamEvent.messageComplete(usage(5, 2));
    } else {
      yield StreamEvent.textDelta('complete');
      yield StreamEvent.messageComplete();
    }
  }
}

async function runWithTurnBudget(maxTurns: number, workspace: string) {
  const client = new ProgressClient(2);
  const { agent } = makeAgent(client, [(config) => new CheckpointTool(config)], { cwd: workspace, maxTurns });
  const events: AgentEvent[] = await collect(agent.run('make progress'));
  const last = events.at(-1);
  return {
    maxTurns,
    clientCalls: client.calls,
    success: events.some((event) => event.type === AgentEventType.AGENT_END && event.data.response === 'complete'),
    agentErrors: events.filter((event) => event.type === AgentEventType.AGENT_ERROR).length,
    reason: last?.type === 'agent_error' ? last.data.reason : null,
  };
}

describe('seed: turn budgets', () => {
  it('fails with turn_budget below three turns and succeeds from three', async () => {
    const workspace = tempWorkspace();
    const curve = [];
    for (const limit of [1, 2, 3, 4]) curve.push(await runWithTurnBudget(limit, workspace));
    expect(curve.map((row) => row.success)).toEqual([false, false, true, true]);
    expect(curve.map((row) => row.clientCalls)).toEqual([1, 2, 3, 3]);
    expect(curve.map((row) => row.agentErrors)).toEqual([1, 1, 0, 0]);
    expect(curve.map((row) => row.reason)).toEqual(['turn_budget', 'turn_budget', null, null]);
  });
});
