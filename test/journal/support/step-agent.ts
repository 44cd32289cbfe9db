import { z } from 'zod';
import {
  type Config,
  defineTool,
  type Message,
  type ModelClient,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../../src/index.js';

/** Tool turns the step client asks for before it answers. */
export const STEPS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A model that reads what it is sent: while fewer than {@link STEPS} tool results came back it asks
 * for `step` once more (call id `w<k>`), then answers `all done`. Each answer takes a few ms.
 */
export function stepClient(): ModelClient {
  return {
    async *chatCompletion(messages: readonly Message[]) {
      await sleep(4);
      const k = messages.filter((m) => m.role === 'tool').length;
      if (k < STEPS) {
        yield StreamEvent.toolCallComplete({ callId: `w${k}`, name: 'step', arguments: { n: k } });
      } else yield StreamEvent.textDelta('all done');
      yield StreamEvent.messageComplete({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    },
  };
}

/** A registry with `step` (kind write): it waits, calls `effect` with its call id, waits again. */
export function stepRegistry(config: Config, effect: (callId: string) => void): ToolRegistry {
  return new ToolRegistry(config).register(
    defineTool({
      name: 'step',
      description: 'Does one step with a side effect.',
      kind: ToolKind.WRITE,
      schema: z.object({ n: z.number().int() }),
      execute: async ({ params, callId }) => {
        await sleep(3);
        effect(callId);
        await sleep(3);
        return `did ${params.n}`;
      },
    }),
  );
}
