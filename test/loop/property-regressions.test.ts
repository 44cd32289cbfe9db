import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/index.js';
import { assertLoopInvariants, formatScript, runScript, type Script } from '../../src/testing/index.js';
import { chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

function callWith(args: JsonValue): Script {
  return [
    { kind: 'tools', text: [], calls: [{ name: 'echo', arguments: args }], usage },
    { kind: 'answer', text: ['done'], usage },
  ];
}

/** Counterexamples the property runs found, kept so they stay fixed. */
describe('regressions found by the property runs', () => {
  // Shrunk counterexample: `1. tools usage 0+0=0 / call-1-1 echo(0)`, budget {"maxTurns":1}.
  // A client that sends tool arguments that are neither an object nor text (0, [1], true, null)
  // got them journalled as is, and Session.replay then refused the journal.
  for (const args of [0, [1, 2], true, null] as JsonValue[]) {
    it(`journals non-object arguments (${JSON.stringify(args)}) replayably and answers Invalid parameters`, async () => {
      const script = callWith(args);
      const run = await runScript(script, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 3 } });
      assertLoopInvariants(run.journal, { events: run.events, maxTurns: 3, context: formatScript(script) });
      const observation = run.session.messages.find((message) => message.role === 'tool');
      expect(observation?.content).toMatch(/^Error: Invalid parameters/);
      expect(run.events.at(-1)?.type).toBe('agent_end');
    });
  }
});
