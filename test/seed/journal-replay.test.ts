import { describe, expect, it } from 'vitest';
import { Config, Session, stableJson, ToolRegistry } from '../../src/index.js';
import { tempWorkspace } from '../support/workspace.js';

describe('seed: event journal', () => {
  it('replays a journal into an equal session with a byte-identical journal', () => {
    const config = new Config({ cwd: tempWorkspace(), maxTurns: 3 });
    const registry = new ToolRegistry(config);
    const session = new Session(config, { registry });
    session.startTurn();
    session.addUserMessage('inspect the project');
    session.addAssistantMessage('I will inspect it', [{ id: 'call-1', name: 'list_dir', arguments: { path: '.' } }]);
    session.addToolResult({ callId: 'call-1', content: 'app.py' });
    session.trackUsage({ promptTokens: 10, completionTokens: 4, totalTokens: 14 });

    const journal = structuredClone(session.journal);
    const replayed = Session.replay(journal, config, { registry });

    expect(journal.map((entry) => entry.type)).toEqual([
      'turn_start',
      'user_message',
      'assistant_message',
      'tool_result',
      'usage',
    ]);
    expect(replayed.messages).toHaveLength(3);
    expect(replayed.messages).toEqual(session.messages);
    expect(replayed.turnCount).toBe(session.turnCount);
    expect(replayed.totalUsage).toEqual(session.totalUsage);
    expect(replayed.journal).toEqual(journal);
    expect(stableJson(replayed.journal)).toBe(stableJson(journal));
  });
});
