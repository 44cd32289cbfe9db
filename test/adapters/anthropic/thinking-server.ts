import { isDeepStrictEqual } from 'node:util';
import {
  type FakeResponse,
  type FakeServer,
  fixture,
  type ReceivedRequest,
  startFakeServer,
} from '../support/fake-server.js';

/** The three answers of a tool loop with thinking: read app.py, read notes.md, answer. */
export const THINKING_TURNS = [
  'anthropic/thinking-tool-use.sse',
  'anthropic/thinking-redacted-tool-use.sse',
  'anthropic/thinking-answer.sse',
] as const;

/** A thinking block as the API returns it, and as it must come back. */
export type WireThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

interface SseEvent {
  type: string;
  index?: number;
  content_block?: { type: string; data?: string };
  delta?: { type: string; thinking?: string; signature?: string };
}

/** The thinking blocks of a recorded stream, assembled as the API documents it. */
export function thinkingBlocksOf(sse: Buffer): WireThinkingBlock[] {
  const blocks = new Map<number, WireThinkingBlock>();
  const events = sse
    .toString('utf8')
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as SseEvent);
  for (const event of events) {
    const at = event.index ?? -1;
    const start = event.content_block;
    if (event.type === 'content_block_start' && start?.type === 'thinking') {
      blocks.set(at, { type: 'thinking', thinking: '', signature: '' });
    } else if (event.type === 'content_block_start' && start?.type === 'redacted_thinking') {
      blocks.set(at, { type: 'redacted_thinking', data: start.data ?? '' });
    }
    const block = blocks.get(at);
    if (event.type !== 'content_block_delta' || block?.type !== 'thinking') continue;
    if (event.delta?.type === 'thinking_delta') block.thinking += event.delta.thinking ?? '';
    if (event.delta?.type === 'signature_delta') block.signature = event.delta.signature ?? '';
  }
  return [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
}

/** A 400 as the Messages API sends it. */
export function invalidRequest(message: string): FakeResponse {
  return {
    status: 400,
    chunks: [JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } })],
  };
}

interface WireMessage {
  role: string;
  content: { type: string }[];
}

/**
 * Why the API would refuse this request of a thinking tool loop, or undefined: each assistant
 * turn must open with the thinking blocks the server streamed for it, unchanged, signature and
 * redacted data included (the API verifies them), before its text and tool use.
 */
export function thinkingProblem(request: ReceivedRequest, answers: readonly WireThinkingBlock[][]): string | undefined {
  const body = request.body as { thinking?: unknown; messages: WireMessage[] };
  if (body.thinking === undefined) return 'thinking: the loop runs with thinking on';
  const assistants = body.messages.flatMap((message, at) => (message.role === 'assistant' ? [{ message, at }] : []));
  for (const [turn, { message, at }] of assistants.entries()) {
    const expected = answers[turn] ?? [];
    const given = message.content.slice(0, expected.length);
    if (!isDeepStrictEqual(given, expected)) {
      const first = message.content[0]?.type ?? 'nothing';
      return `messages.${at}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`, or a block that was modified. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block, unchanged.`;
    }
  }
  return undefined;
}

/**
 * A Messages API stand-in for a thinking tool loop: it answers a conversation holding n assistant
 * turns with `turns[n]`, or with a 400, as the real API does, when the request leaves out or
 * changes a thinking block it streamed before.
 */
export async function startThinkingServer(turns: readonly string[] = THINKING_TURNS): Promise<FakeServer> {
  const streams = turns.map((name) => fixture(name));
  const answers = streams.map(thinkingBlocksOf);
  return startFakeServer((request) => {
    const problem = thinkingProblem(request, answers);
    if (problem !== undefined) return invalidRequest(problem);
    // The turn the conversation is at: one answer per assistant turn already in it.
    const turn = (request.body as { messages: WireMessage[] }).messages.filter((m) => m.role === 'assistant').length;
    const stream = streams[turn];
    return stream === undefined ? invalidRequest('the loop has no more turns') : { chunks: [stream] };
  });
}
