import type { Message } from '../../../src/index.js';
import type { ContentPart } from '../../../src/tools/index.js';

/** A 1×1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The bytes of a tiny PDF, base64. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64');

/** A text file's content, and its bytes as base64. */
export const NOTES_TEXT = 'Deploy on Fridays: never.\nÜber-check the logs.';
export const NOTES = Buffer.from(NOTES_TEXT).toString('base64');

/** The note a part stands as where only text goes: `[image image/png, 67 bytes]`. */
export function noteOf(kind: 'image' | 'file', mediaType: string, base64: string, name?: string): string {
  const named = name === undefined ? '' : ` "${name}"`;
  return `[${kind}${named} ${mediaType}, ${Buffer.from(base64, 'base64').length} bytes]`;
}

export const screenshot: ContentPart[] = [
  { type: 'text', text: 'the screen' },
  { type: 'image', mediaType: 'image/png', data: PNG },
];

/**
 * A user message with a PDF, a turn of two calls, the first of which returned a screenshot, and
 * a harness note after the results.
 */
export function toolImageConversation(): Message[] {
  return [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is on screen? The spec:' },
        { type: 'file', mediaType: 'application/pdf', data: PDF, name: 'spec.pdf' },
      ],
    },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { callId: 'call_1', name: 'screenshot', arguments: {} },
        { callId: 'call_2', name: 'read_file', arguments: { path: 'a.txt' } },
      ],
    },
    { role: 'tool', callId: 'call_1', content: screenshot },
    { role: 'tool', callId: 'call_2', content: 'hello' },
    { role: 'user', content: 'Answer now.', author: 'harness' },
  ];
}
