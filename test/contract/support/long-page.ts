import { z } from 'zod';
import { defineTool, StreamEvent, ToolKind } from '../../../src/index.js';

/** A read tool whose output (8,000 characters) overfills a small context: compaction has something to do. */
export const page = defineTool({
  name: 'page',
  description: 'Reads a long page.',
  kind: ToolKind.READ,
  schema: z.object({}),
  execute: () => 'x'.repeat(8000),
});

/**
 * A model turn that calls `page`. No usage is reported: the context's size is then the library's
 * own estimate of what was sent.
 */
export const pageCall = (callId: string) => [
  StreamEvent.toolCallComplete({ callId, name: 'page', arguments: {} }),
  StreamEvent.messageComplete(),
];
