import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { BaseChatModel, type BaseChatModelCallOptions } from '@langchain/core/language_models/chat_models';
import { AIMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { type Contender, expectComplete } from '../contender.js';
import { callIdOf, checkpointOutput, FINAL_ANSWER, PROMPT } from '../workload.js';

const USAGE = { input_tokens: 5, output_tokens: 2, total_tokens: 7 };

/** A zero-latency scripted chat model that asks for `checkpoint` until `toolTurns`, then answers. */
class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly toolTurns: number) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions> {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    let results = 0;
    for (const message of messages) if (message.getType() === 'tool') results++;
    const step = results + 1;
    const message =
      step > this.toolTurns
        ? new AIMessage({ content: FINAL_ANSWER, usage_metadata: USAGE })
        : new AIMessage({
            content: '',
            tool_calls: [{ id: callIdOf(step), name: 'checkpoint', args: { step }, type: 'tool_call' }],
            usage_metadata: USAGE,
          });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** LangGraph.js: the prebuilt `createReactAgent`, streamed, on a scripted chat model. */
export function langGraphContender(): Contender {
  const checkpoint = tool(async ({ step }: { step: number }) => checkpointOutput(step), {
    name: 'checkpoint',
    description: 'Record one deterministic progress step.',
    schema: z.object({ step: z.number().int().min(1) }),
  });
  return {
    name: 'langgraph 1.7 (createReactAgent)',
    async run(toolTurns) {
      const agent = createReactAgent({ llm: new ScriptedChatModel(toolTurns), tools: [checkpoint] });
      let last: { messages?: BaseMessage[] } | undefined;
      const stream = await agent.stream(
        { messages: [{ role: 'user', content: PROMPT }] },
        { streamMode: 'values', recursionLimit: 2 * toolTurns + 10 },
      );
      for await (const state of stream) last = state as { messages?: BaseMessage[] };
      const messages = last?.messages ?? [];
      const answer = messages.at(-1)?.content;
      const turns = messages.filter((message) => message.getType() === 'ai').length;
      return expectComplete(this.name, typeof answer === 'string' ? answer : undefined, turns, toolTurns);
    },
  };
}
