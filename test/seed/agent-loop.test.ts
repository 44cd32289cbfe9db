import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  AgentEventType,
  type Message,
  ReadFileTool,
  type StreamEvent,
  StreamEventType,
} from '../../src/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** The seed's hand-written client: same shape, no library helpers. */
class ScriptedClient {
  calls = 0;
  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    this.calls += 1;
    if (this.calls === 1) {
      yield { type: StreamEventType.TEXT_DELTA, textDelta: { content: 'I inspected the file. ' } };
      yield {
        type: StreamEventType.TOOL_CALL_COMPLETE,
        toolCall: { callId: 'call-read', name: 'read_file', arguments: { path: 'app.py' } },
      };
      yield {
        type: StreamEventType.MESSAGE_COMPLETE,
        usage: { promptTokens: 12, completionTokens: 6, totalTokens: 18 },
      };
    } else {
      if (messages.at(-1)?.role !== 'tool') throw new Error('expected a tool observation last');
      yield { type: StreamEventType.TEXT_DELTA, textDelta: { content: 'The file contains one function.' } };
      yield {
        type: StreamEventType.MESSAGE_COMPLETE,
        usage: { promptTokens: 20, completionTokens: 7, totalTokens: 27 },
      };
    }
  }
}

describe('seed: agent loop', () => {
  it('streams a tool turn and a final turn, recording each step', async () => {
    const workspace = tempWorkspace();
    writeFileSync(join(workspace, 'app.py'), 'def add(a, b):\n    return a + b\n');
    const scripted = new ScriptedClient();
    const { agent, session } = makeAgent(scripted, [(config) => new ReadFileTool(config)], {
      cwd: workspace,
      maxTurns: 3,
    });
    const observed: AgentEvent[] = [];
    agent.events.subscribe((event) => {
      observed.push(event);
    });

    const events = await collect(agent.run('Inspect app.py'));
    const finalEvent = events.find((event) => event.type === AgentEventType.AGENT_END);

    expect(finalEvent?.type === 'agent_end' && finalEvent.data.response).toBe('The file contains one function.');
    expect(scripted.calls).toBe(2);
    expect(session.turnCount).toBe(2);
    expect(session.totalUsage.totalTokens).toBe(45);
    expect(session.messages.at(-1)?.role).toBe('tool');
    expect(session.messages.at(-1)?.content).toContain('return a + b');
    expect(observed.map((event) => event.type)).toEqual(events.map((event) => event.type));
    expect(events.map((event) => event.type)).toEqual([
      'agent_start',
      'text_delta',
      'text_complete',
      'tool_call_start',
      'tool_call_complete',
      'text_delta',
      'text_complete',
      'agent_end',
    ]);
  });
});
