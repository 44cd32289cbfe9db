import { z } from 'zod';
import { defineTool, ToolKind } from '../../../src/index.js';

/**
 * The read tool `read_page` the compaction tests share: page N's output is `page N: ` and then
 * `lorem ipsum ` `repeats` times (12 characters each).
 */
export function loremPages(repeats: number) {
  return defineTool({
    name: 'read_page',
    description: 'Reads one page.',
    kind: ToolKind.READ,
    schema: z.object({ page: z.number().int() }),
    execute: ({ params }) => `page ${params.page}: ${'lorem ipsum '.repeat(repeats)}`,
  });
}

/** A tool `r` with a small definition and a 40-character output. */
export const tinyTool = defineTool({
  name: 'r',
  description: 'r',
  kind: ToolKind.READ,
  schema: z.object({}),
  execute: () => 'x'.repeat(40),
});
