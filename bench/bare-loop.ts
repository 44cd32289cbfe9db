import type { Message, ModelClient, TokenUsage, ToolCall } from '../src/index.js';
import { type Contender, expectComplete } from './contender.js';
import { LeanClient } from './lean-client.js';
import { checkpointOutput, checkpointSchema, PROMPT } from './workload.js';

/** The outcome of one bare run. */
export interface BareOutcome {
  readonly answer: string;
  readonly turns: number;
  readonly messages: Message[];
  readonly usage: TokenUsage;
}

/**
 * The floor: a hand-written async loop doing the workload's work and nothing else — stream
 * the turn, keep the messages, validate each call with zod, run the tool, sum usage.
 * No events, no journal, no budgets, no state machine.
 */
export async function bareLoop(client: ModelClient, prompt: string, maxTurns: number): Promise<BareOutcome> {
  const messages: Message[] = [{ role: 'user', content: prompt }];
  let usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (let turns = 1; turns <= maxTurns; turns++) {
    let text = '';
    const calls: ToolCall[] = [];
    for await (const event of await client.chatCompletion(messages)) {
      if (event.type === 'text_delta')
        text += typeof event.textDelta === 'string' ? event.textDelta : event.textDelta?.content;
      else if (event.type === 'tool_call_complete' && event.toolCall) calls.push(event.toolCall);
      else if (event.type === 'message_complete') {
        const u = event.usage;
        if (u)
          usage = {
            promptTokens: usage.promptTokens + u.promptTokens,
            completionTokens: usage.completionTokens + u.completionTokens,
            totalTokens: usage.totalTokens + u.totalTokens,
          };
        break;
      }
    }
    if (calls.length === 0) return { answer: text, turns, messages, usage };
    messages.push({ role: 'assistant', content: text, toolCalls: calls });
    for (const call of calls) {
      const parsed = checkpointSchema.safeParse(call.arguments);
      const content = parsed.success ? checkpointOutput(parsed.data.step) : `Error: ${parsed.error.message}`;
      messages.push({ role: 'tool', callId: call.callId, content });
    }
  }
  throw new Error(`bare loop: no answer within ${maxTurns} turns`);
}

/** The bare loop on the workload. */
export function bareContender(): Contender {
  const clients = new Map<number, LeanClient>();
  return {
    name: 'bare loop',
    async run(toolTurns) {
      let client = clients.get(toolTurns);
      if (client === undefined) {
        client = new LeanClient(toolTurns);
        clients.set(toolTurns, client);
      }
      const { answer, turns } = await bareLoop(client, PROMPT, toolTurns + 1);
      return expectComplete('bare loop', answer, turns, toolTurns);
    },
  };
}
