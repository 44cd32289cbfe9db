import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentEventType, type Message, StreamEvent, Tool, ToolKind, type ToolResult } from '../../src/index.js';
import { collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const explodeSchema = z.object({ reason: z.string().describe('Why the fixture should raise.') });

class ExplodingTool extends Tool<typeof explodeSchema> {
  name = 'explode';
  description = 'A fixture that raises to test crash containment.';
  kind = ToolKind.SHELL;
  schema = explodeSchema;
  async execute(): Promise<ToolResult> {
    throw new Error('fixture boom');
  }
}

class RecoveryClient {
  calls = 0;
  async *chatCompletion(messages: readonly Message[]) {
    this.calls += 1;
    if (this.calls === 1) {
      yield StreamEvent.toolCallComplete({ callId: 'call-explode', name: 'explode', arguments: { reason: 'test' } });
      yield StreamEvent.messageComplete(usage(8, 3));
    } else {
      const last = messages.at(-1);
      if (last?.role !== 'tool' || !last.content.startsWith('Error: Internal error'))
        throw new Error('no error observation');
      yield StreamEvent.textDelta('Recovered after the tool error.');
      yield StreamEvent.messageComplete(usage(13, 5));
    }
  }
}

describe('seed: tool failures', () => {
  it('turns a throwing tool into an error observation and recovers', async () => {
    const client = new RecoveryClient();
    const { agent, session } = makeAgent(client, [(config) => new ExplodingTool(config)], {
      cwd: tempWorkspace(),
      maxTurns: 2,
    });
    const events = await collect(agent.run('run the fixture'));
    const toolEvents = events.filter((event) => event.type === AgentEventType.TOOL_CALL_COMPLETE);
    const end = events.find((event) => event.type === AgentEventType.AGENT_END);

    expect(toolEvents).toHaveLength(1);
    expect(toolEvents[0]?.type === 'tool_call_complete' && toolEvents[0].data.success).toBe(false);
    expect(toolEvents[0]?.type === 'tool_call_complete' && toolEvents[0].data.error).toContain('fixture boom');
    expect(end?.type === 'agent_end' && end.data.response).toBe('Recovered after the tool error.');
    expect(client.calls).toBe(2);
    expect(session.messages.at(-1)).toEqual({
      role: 'tool',
      callId: 'call-explode',
      content: 'Error: Internal error: fixture boom',
    });
  });
});
