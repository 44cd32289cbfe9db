import fc from 'fast-check';
import { z } from 'zod';
import { defineTool, type JsonValue, ToolKind, ToolResult } from '../../src/index.js';
import type { ToolArbitrary } from '../../src/testing/index.js';
import type { ToolLike } from '../../src/tools/index.js';

/** Marks every successful tool output, so tests can see where tool output ended up. */
export const OUTPUT_MARK = 'TOOL-OUT<<';

const textSchema = z.object({ text: z.string() });
const msSchema = z.object({ ms: z.number().int().min(0).max(50) });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const floodSchema = z.object({ n: z.number().int().min(0).max(1000) });

/** Tools that succeed, fail, throw, hang (ignoring their signal), are slow, or flood their output. */
export function chaosTools(): ToolLike[] {
  return [
    defineTool({
      name: 'echo',
      description: 'Echoes its text.',
      kind: ToolKind.READ,
      schema: textSchema,
      execute: ({ params }) => `${OUTPUT_MARK}${params.text}>>`,
    }),
    defineTool({
      name: 'refuse',
      description: 'Always fails.',
      kind: ToolKind.WRITE,
      schema: textSchema,
      execute: ({ params }) => ToolResult.error(`refused ${params.text}`),
    }),
    defineTool({
      name: 'crash',
      description: 'Always throws.',
      kind: ToolKind.SHELL,
      schema: textSchema,
      execute: () => {
        throw new Error('tool crashed');
      },
    }),
    defineTool({
      name: 'hang',
      description: 'Never returns and ignores its signal.',
      kind: ToolKind.READ,
      schema: textSchema,
      execute: () => new Promise<string>(() => {}),
    }),
    defineTool({
      name: 'slow',
      description: 'Takes a few milliseconds; stops early when aborted.',
      kind: ToolKind.WRITE,
      schema: msSchema,
      execute: async ({ params, signal }) => {
        await sleep(params.ms, signal);
        return `${OUTPUT_MARK}slept ${params.ms}>>`;
      },
    }),
    defineTool({
      name: 'flood',
      description: 'Returns n characters.',
      kind: ToolKind.READ,
      schema: floodSchema,
      execute: ({ params }) => `${OUTPUT_MARK}${'x'.repeat(params.n)}>>`,
    }),
  ];
}

const text = fc.record({ text: fc.string({ maxLength: 5 }) }) as fc.Arbitrary<JsonValue>;

/** Valid arguments for each chaos tool. */
export const CHAOS_TOOL_ARBITRARIES: readonly ToolArbitrary[] = [
  { name: 'echo', arguments: text },
  { name: 'refuse', arguments: text },
  { name: 'crash', arguments: text },
  { name: 'hang', arguments: text },
  { name: 'slow', arguments: fc.record({ ms: fc.integer({ min: 0, max: 15 }) }) as fc.Arbitrary<JsonValue> },
  { name: 'flood', arguments: fc.record({ n: fc.integer({ min: 0, max: 400 }) }) as fc.Arbitrary<JsonValue> },
];
