import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { type Contender, expectComplete } from '../contender.js';
import { callIdOf, checkpointOutput, FINAL_ANSWER, PROMPT } from '../workload.js';

/** The usage every scripted step reports (5 + 2 tokens, as the harness's). */
export const USAGE = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function partsFor(step: number, toolTurns: number): LanguageModelV3StreamPart[] {
  if (step > toolTurns) {
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: FINAL_ANSWER },
      { type: 'text-end', id: 't' },
      { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
    ];
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: callIdOf(step), toolName: 'checkpoint', input: JSON.stringify({ step }) },
    { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
  ];
}

function streamOf(parts: readonly LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** The whole answer of step `step`, for `doGenerate` (what `generateText` calls). */
function resultFor(step: number, toolTurns: number): LanguageModelV3GenerateResult {
  if (step > toolTurns) {
    return {
      content: [{ type: 'text', text: FINAL_ANSWER }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: USAGE,
      warnings: [],
    };
  }
  return {
    content: [
      { type: 'tool-call', toolCallId: callIdOf(step), toolName: 'checkpoint', input: JSON.stringify({ step }) },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/** The step of a request: one more than the tool results in its prompt. */
export function stepOf(options: LanguageModelV3CallOptions): number {
  let results = 0;
  for (const message of options.prompt) if (message.role === 'tool') results++;
  return results + 1;
}

function checkpointTool() {
  return tool({
    description: 'Record one deterministic progress step.',
    inputSchema: z.object({ step: z.number().int().min(1) }),
    execute: async ({ step }) => checkpointOutput(step),
  });
}

/**
 * The Vercel AI SDK v6 without streaming, its cheapest entry point: `generateText` with tools and
 * `stopWhen`, on its `MockLanguageModelV3` (`doGenerate`).
 */
export function aiSdkGenerateContender(): Contender {
  const checkpoint = checkpointTool();
  return {
    name: 'ai 6 (generateText)',
    async run(toolTurns) {
      const model = new MockLanguageModelV3({
        doGenerate: async (options) => resultFor(stepOf(options), toolTurns),
      });
      const result = await generateText({
        model,
        prompt: PROMPT,
        tools: { checkpoint },
        stopWhen: stepCountIs(toolTurns + 1),
      });
      return expectComplete(this.name, result.text, result.steps.length, toolTurns);
    },
  };
}

/** The Vercel AI SDK v6: `streamText` with tools and `stopWhen`, on its `MockLanguageModelV3`. */
export function aiSdkContender(): Contender {
  const checkpoint = checkpointTool();
  return {
    name: 'ai 6 (streamText)',
    async run(toolTurns) {
      const model = new MockLanguageModelV3({
        doStream: async (options) => ({ stream: streamOf(partsFor(stepOf(options), toolTurns)) }),
      });
      const result = streamText({
        model,
        prompt: PROMPT,
        tools: { checkpoint },
        stopWhen: stepCountIs(toolTurns + 1),
      });
      for await (const _part of result.fullStream) {
        // Consume every streamed part, as an application would.
      }
      const steps = await result.steps;
      return expectComplete(this.name, await result.text, steps.length, toolTurns);
    },
  };
}
