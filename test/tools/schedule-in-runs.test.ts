import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ScriptedClient, StreamEvent, ToolKind } from '../../src/index.js';
import type { ToolLike } from '../../src/tools/index.js';
import { collect, makeAgent, textTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

interface Span {
  readonly id: string;
  readonly start: number;
  end?: number;
}

/** A tool of `kind` that takes `ms` per call and records when each call starts and ends. */
function loggingTool(name: string, kind: ToolKind, spans: Span[]): ToolLike<z.ZodObject> {
  return defineTool({
    name,
    description: `Waits, and logs its start and end (${kind}).`,
    kind,
    schema: z.object({ id: z.string(), ms: z.number() }),
    execute: async ({ params }) => {
      const span: Span = { id: params.id, start: performance.now() };
      spans.push(span);
      await new Promise((resolve) => setTimeout(resolve, params.ms));
      span.end = performance.now();
      return `done ${params.id}`;
    },
  });
}

async function runTurn(calls: readonly [name: string, id: string, ms: number][]) {
  const spans: Span[] = [];
  const turn = [
    ...calls.map(([name, id, ms]) => StreamEvent.toolCallComplete({ callId: id, name, arguments: { id, ms } })),
    StreamEvent.messageComplete(),
  ];
  const { agent, session } = makeAgent(
    new ScriptedClient([turn, textTurn('ok')]),
    [() => loggingTool('read', ToolKind.READ, spans), () => loggingTool('write', ToolKind.WRITE, spans)],
    { cwd: tempWorkspace() },
  );
  const events = await collect(agent.run('go'));
  const span = (id: string) => spans.find((s) => s.id === id) as Span;
  return { spans, span, events, session };
}

describe('the tool schedule, as a run shows it', () => {
  it('starts a write only once every read of the batch before it has finished, also when the first read finishes first', async () => {
    // r1 finishes long before r2: the batch is half done when r1 settles, and w must still wait.
    const { span, spans } = await runTurn([
      ['read', 'r1', 1],
      ['read', 'r2', 40],
      ['write', 'w', 1],
    ]);
    expect(spans.map((s) => s.id)).toEqual(['r1', 'r2', 'w']);
    expect(span('r2').start).toBeLessThan(span('r1').end ?? 0); // the reads ran together
    expect(span('w').start).toBeGreaterThanOrEqual(span('r2').end ?? Number.POSITIVE_INFINITY);
    expect(span('w').start).toBeGreaterThanOrEqual(span('r1').end ?? Number.POSITIVE_INFINITY);
  });

  it('starts a read after a write only once the write has finished, and the reads after it together', async () => {
    const { span, spans, session } = await runTurn([
      ['write', 'w', 20],
      ['read', 'r1', 1],
      ['read', 'r2', 30],
      ['write', 'w2', 1],
    ]);
    expect(spans.map((s) => s.id)).toEqual(['w', 'r1', 'r2', 'w2']);
    expect(span('r1').start).toBeGreaterThanOrEqual(span('w').end ?? Number.POSITIVE_INFINITY);
    expect(span('r2').start).toBeLessThan(span('r1').end ?? 0);
    expect(span('w2').start).toBeGreaterThanOrEqual(span('r2').end ?? Number.POSITIVE_INFINITY);
    const results = session.messages.filter((m) => m.role === 'tool').map((m) => m.callId);
    expect(results).toEqual(['w', 'r1', 'r2', 'w2']);
  });
});
