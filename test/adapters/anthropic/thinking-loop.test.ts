import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import type { ReasoningContent } from '../../../src/core/messages.js';
import type { AssistantMessage, Message, ToolCall } from '../../../src/index.js';
import { textOf } from '../../../src/machine.js';
import { drain, drainError } from '../support/drain.js';
import type { FakeServer } from '../support/fake-server.js';
import { startThinkingServer } from './thinking-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FILES: Record<string, string> = { 'app.py': 'def add(a, b):\n    return a + b\n', 'notes.md': '# Notes\n' };

async function thinkingClient() {
  server = await startThinkingServer();
  return new AnthropicClient({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    thinking: { budgetTokens: 2048 },
  });
}

/** One turn read as the agent reads it: text, tool calls and reasoning parts, in stream order. */
async function turn(client: AnthropicClient, messages: readonly Message[]): Promise<AssistantMessage> {
  const events = await drain(client.chatCompletion(messages));
  const reasoning: ReasoningContent[] = events.flatMap((e) =>
    e.type === 'reasoning_complete' && e.reasoning ? [e.reasoning] : [],
  );
  const toolCalls: ToolCall[] = events.flatMap((e) =>
    e.type === 'tool_call_complete' && e.toolCall ? [e.toolCall] : [],
  );
  const content = events.map((e) => (e.type === 'text_delta' ? textOf(e.textDelta) : '')).join('');
  return {
    role: 'assistant',
    content,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
  };
}

function resultsOf(message: AssistantMessage): Message[] {
  return (message.toolCalls ?? []).map((call) => {
    const path = typeof call.arguments === 'string' ? '' : String(call.arguments.path);
    return { role: 'tool', callId: call.callId, content: FILES[path] ?? 'Error: no such file' };
  });
}

const start: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What do app.py and notes.md hold?' },
];

describe('a thinking tool loop on the Anthropic client', () => {
  it('runs three turns, each request sending back every earlier turn’s thinking blocks as they came', async () => {
    const client = await thinkingClient();
    const messages = [...start];
    for (let n = 0; n < 3; n++) {
      const answer = await turn(client, messages);
      messages.push(answer, ...resultsOf(answer));
    }
    const last = messages.at(-1) as AssistantMessage;
    expect(last.content).toBe('app.py adds two numbers; notes.md holds a heading.');
    expect(last.reasoning).toEqual([
      expect.objectContaining({ type: 'reasoning', provider: 'anthropic', text: 'Both files are read; I can answer.' }),
    ]);
    expect(server?.requests).toHaveLength(3);
    const third = server?.requests[2]?.body as { messages: { role: string; content: { type: string }[] }[] };
    const assistants = third.messages.filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.content.map((block) => block.type))).toEqual([
      ['thinking', 'text', 'tool_use'],
      ['redacted_thinking', 'thinking', 'tool_use'],
    ]);
  });

  it('is refused with the API’s 400, once, when a tool-turn request leaves out the thinking block', async () => {
    const client = await thinkingClient();
    const first = await turn(client, start);
    const { reasoning: _, ...withoutThinking } = first;
    const error = await drainError(client.chatCompletion([...start, withoutThinking, ...resultsOf(first)]));
    expect(error).toMatchObject({ reason: 'model_error', status: 400 });
    expect(error.message).toMatch(/must start with a thinking block/);
    expect(server?.requests).toHaveLength(2);
  });

  it('is refused when the signature was changed on the way', async () => {
    const client = await thinkingClient();
    const first = await turn(client, start);
    const tampered: AssistantMessage = {
      ...first,
      reasoning: first.reasoning?.map((part) =>
        part.type === 'reasoning' ? { ...part, signature: `${part.signature ?? ''}x` } : part,
      ),
    };
    const error = await drainError(client.chatCompletion([...start, tampered, ...resultsOf(first)]));
    expect(error).toMatchObject({ status: 400 });
  });
});
