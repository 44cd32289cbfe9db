import { z } from 'zod';
import { defineTool, ToolKind } from '../../src/index.js';
import type { ToolLike } from '../../src/tools/index.js';

/** What {@link hangingTool} records: the last abort reason, and the calls started and aborted. */
export interface HangingToolLog {
  aborted?: string;
  readonly started?: string[];
  readonly abortedCalls?: string[];
}

/** A tool that never finishes on its own; records the calls it starts and the aborts it receives. */
export function hangingTool(seen: HangingToolLog, kind: ToolKind = ToolKind.READ): ToolLike<z.ZodObject> {
  return defineTool({
    name: 'hang',
    description: 'Never returns unless aborted.',
    kind,
    schema: z.object({}),
    execute: ({ signal, callId }) =>
      new Promise<string>((_, reject) => {
        seen.started?.push(callId);
        signal.addEventListener('abort', () => {
          seen.aborted = String(signal.reason);
          seen.abortedCalls?.push(callId);
          reject(new Error('aborted'));
        });
      }),
  });
}

/** A tool that records when each call starts and ends, taking `ms` milliseconds. */
export function timedTool(
  name: string,
  kind: ToolKind,
  log: string[],
  ms = 5,
  concurrencySafe?: boolean,
): ToolLike<z.ZodObject<{ id: z.ZodString }>> {
  return defineTool({
    name,
    description: `Logs start/end (${kind}).`,
    kind,
    ...(concurrencySafe === undefined ? {} : { concurrencySafe }),
    schema: z.object({ id: z.string() }),
    execute: async ({ params }) => {
      log.push(`start ${params.id}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${params.id}`);
      return `done ${params.id}`;
    },
  });
}
