import type { LanguageModelV3, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { latencyMs, sleep } from '../scale/latency.js';
import {
  expectAnswer,
  finalAnswerText,
  type ScaleContender,
  type ScaleWorkload,
  toolTurnText,
} from '../scale/scale-workload.js';
import { callIdOf, checkpointOutput, PROMPT } from '../workload.js';
import { stepOf, USAGE } from './ai-sdk.js';

function resultFor(step: number, workload: ScaleWorkload): LanguageModelV3GenerateResult {
  if (step > workload.toolTurns) {
    return {
      content: [{ type: 'text', text: finalAnswerText(workload.deltas) }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: USAGE,
      warnings: [],
    };
  }
  return {
    content: [
      { type: 'text', text: toolTurnText(workload.deltas) },
      { type: 'tool-call', toolCallId: callIdOf(step), toolName: 'checkpoint', input: JSON.stringify({ step }) },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/**
 * A bare `LanguageModelV3` for one session: waits the latency model's time, then answers the
 * step whole (`doGenerate`). Cheaper than `MockLanguageModelV3`, which records every call.
 */
function pacedModel(workload: ScaleWorkload, session: number): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'paced',
    supportedUrls: {},
    async doGenerate(options) {
      const step = stepOf(options);
      await sleep(latencyMs(workload.latency, session, step));
      return resultFor(step, workload);
    },
    doStream() {
      throw new Error('the scale peer does not stream');
    },
  };
}

/**
 * The Vercel AI SDK's cheapest tool loop on the scale workload: `generateText` with the
 * checkpoint tool and `stopWhen: stepCountIs(toolTurns + 1)`, one paced model per session.
 * Without streaming, each answer's text arrives whole rather than in deltas.
 */
export function aiSdkScaleContender(workload: ScaleWorkload): ScaleContender {
  const checkpoint = tool({
    description: 'Record one deterministic progress step.',
    inputSchema: z.object({ step: z.number().int().min(1) }),
    execute: async ({ step }) => checkpointOutput(step),
  });
  return {
    name: 'ai 6 (generateText)',
    async run(session) {
      const result = await generateText({
        model: pacedModel(workload, session),
        prompt: PROMPT,
        tools: { checkpoint },
        stopWhen: stepCountIs(workload.toolTurns + 1),
      });
      return expectAnswer(this.name, workload, result.text, result.steps.length);
    },
  };
}
