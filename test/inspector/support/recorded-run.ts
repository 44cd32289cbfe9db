import { z } from 'zod';
import {
  type AgentEvent,
  defineTool,
  type JournalEntry,
  ScriptedClient,
  StreamEvent,
  ToolKind,
  ToolResult,
} from '../../../src/index.js';
import { collectToolTimings, type ToolTiming } from '../../../src/inspector/tool-timings.js';
import { collect, makeAgent, textTurn, usage } from '../../support/fixtures.js';

/** Tool output that would run script if it were ever rendered as HTML. */
export const HOSTILE_OUTPUT =
  '<script>window.__pwned = "script"</script><img src="x" onerror="window.__pwned = \'img\'">report\u202Efdp.exe';

/** {@link HOSTILE_OUTPUT} as the page shows it: the bidi override as a visible marker, not acting. */
export const HOSTILE_OUTPUT_SHOWN = HOSTILE_OUTPUT.replace('\u202E', '⟨U+202E⟩');

/** A tool that looks words up: `fail` fails, `html` returns {@link HOSTILE_OUTPUT}. */
export const lookupTool = () =>
  defineTool({
    name: 'lookup',
    description: 'Look a word up.',
    kind: ToolKind.READ,
    schema: z.object({ q: z.string() }),
    execute: ({ params }) => {
      if (params.q === 'fail') return ToolResult.error(`no entry for '${params.q}'`);
      if (params.q === 'html') return HOSTILE_OUTPUT;
      return `${params.q}: a word`;
    },
  });

function call(callId: string, q: string) {
  return StreamEvent.toolCallComplete({ callId, name: 'lookup', arguments: { q } });
}

/**
 * The recorded run: turn 1 asks for two lookups (one returns hostile HTML), turn 2 one that
 * fails, turn 3 one more, then the soft limit (60% of 5 turns) warns and turn 4 answers.
 */
export function recordedScript() {
  return [
    [
      StreamEvent.textDelta('Let me <b>look</b> these up.'),
      call('c1', 'alpha'),
      call('c2', 'html'),
      StreamEvent.messageComplete(usage(40, 12)),
    ],
    [call('c3', 'fail'), StreamEvent.messageComplete(usage(60, 8))],
    [call('c4', 'gamma'), StreamEvent.messageComplete(usage(80, 8))],
    textTurn('Alpha and gamma are words.', usage(100, 20)),
  ];
}

/** Tool calls of the recorded run, in order. */
export const RECORDED_CALLS = ['c1', 'c2', 'c3', 'c4'];

/** Runs the recorded script; returns its journal, tool timings and events. */
export async function recordRun(): Promise<{
  journal: readonly JournalEntry[];
  timings: ToolTiming[];
  events: AgentEvent[];
}> {
  const { agent, session } = makeAgent(new ScriptedClient(recordedScript()), [lookupTool], {
    cwd: process.cwd(),
    budget: { maxTurns: 5, softLimitRatio: 0.6 },
  });
  const timing = collectToolTimings(agent.stream$);
  const events = await collect(agent.run('Look up alpha, html, fail and gamma.'));
  timing.stop();
  return { journal: session.journal, timings: timing.timings, events };
}
