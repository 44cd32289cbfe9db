import { describe, expect, it } from 'vitest';
import { AgentEventType, type Message, StreamEvent } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

class MalformedThenCorrectClient {
  calls = 0;
  async *chatCompletion(messages: readonly Message[]) {
    this.calls += 1;
    if (this.calls === 1) {
      yield StreamEvent.toolCallComplete({
        callId: 'call-bad',
        name: 'checkpoint',
        arguments: { step: 'not-an-integer' },
      });
      yield StreamEvent.messageComplete(usage(6, 3));
    } else {
      const last = messages.at(-1);
      if (last?.role !== 'tool' || !last.content.includes('Invalid parameters'))
        throw new Error('no validation feedback');
      yield StreamEvent.textDelta('Corrected after validation feedback.');
      yield StreamEvent.messageComplete(usage(11, 5));
    }
  }
}

describe('seed: error cascades', () => {
  it('feeds a validation error back and recovers, counting the extra turn and tokens', async () => {
    const client = new MalformedThenCorrectClient();
    const { agent, session } = makeAgent(client, [(config) => new CheckpointTool(config)], {
      cwd: tempWorkspace(),
      maxTurns: 2,
    });
    const events = await collect(agent.run('complete the step'));
    const toolEvents = events.filter((event) => event.type === AgentEventType.TOOL_CALL_COMPLETE);
    const end = events.find((event) => event.type === AgentEventType.AGENT_END);

    expect(toolEvents).toHaveLength(1);
    const data = toolEvents[0]?.type === 'tool_call_complete' ? toolEvents[0].data : undefined;
    expect(data?.success).toBe(false);
    expect(data?.error).toMatch(/^Invalid parameters: step: /);
    expect(session.turnCount).toBe(2);
    expect(session.totalUsage.totalTokens).toBe(25);
    expect(end?.type === 'agent_end' && end.data.response).toBe('Corrected after validation feedback.');
  });
});
