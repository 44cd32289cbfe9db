import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type protocol,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import { type Contender, expectComplete } from '../contender.js';
import { callIdOf, checkpointOutput, FINAL_ANSWER, PROMPT } from '../workload.js';

const USAGE = { requests: 1, inputTokens: 5, outputTokens: 2, totalTokens: 7 };

function stepOf(request: ModelRequest): number {
  if (typeof request.input === 'string') return 1;
  let results = 0;
  for (const item of request.input as AgentInputItem[]) if (item.type === 'function_call_result') results++;
  return results + 1;
}

function outputFor(step: number, toolTurns: number): protocol.OutputModelItem[] {
  if (step > toolTurns) {
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: FINAL_ANSWER }],
      },
    ];
  }
  return [
    {
      type: 'function_call',
      callId: callIdOf(step),
      name: 'checkpoint',
      arguments: JSON.stringify({ step }),
      status: 'completed',
    },
  ];
}

/** A zero-latency scripted `Model`: streams the text delta (if any), then `response_done`. */
class ScriptedModel implements Model {
  constructor(private readonly toolTurns: number) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    // The non-streamed path adds up `Usage` instances (the streamed one builds its own).
    return { usage: new Usage(USAGE), output: outputFor(stepOf(request), this.toolTurns) } as unknown as ModelResponse;
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<protocol.StreamEvent> {
    const step = stepOf(request);
    yield { type: 'response_started' };
    if (step > this.toolTurns) yield { type: 'output_text_delta', delta: FINAL_ANSWER };
    yield {
      type: 'response_done',
      response: { id: `r${step}`, usage: USAGE, output: outputFor(step, this.toolTurns) },
    } as protocol.StreamEvent;
  }
}

function checkpointTool() {
  return tool({
    name: 'checkpoint',
    description: 'Record one deterministic progress step.',
    parameters: z.object({ step: z.number().int().min(1) }),
    execute: async ({ step }) => checkpointOutput(step),
  });
}

function agentFor(checkpoint: ReturnType<typeof checkpointTool>, toolTurns: number): Agent {
  return new Agent({
    name: 'bench',
    instructions: 'Run the checkpoints.',
    tools: [checkpoint],
    model: new ScriptedModel(toolTurns),
  });
}

/**
 * The OpenAI Agents SDK without streaming, its cheapest entry point: `run(agent, input)` on a
 * scripted `Model` (`getResponse`), tracing off.
 */
export function openAiAgentsRunContender(): Contender {
  setTracingDisabled(true);
  const checkpoint = checkpointTool();
  return {
    name: '@openai/agents 0.20 (run)',
    async run(toolTurns) {
      const result = await run(agentFor(checkpoint, toolTurns), PROMPT, { maxTurns: toolTurns + 1 });
      return expectComplete(this.name, String(result.finalOutput), result.rawResponses.length, toolTurns);
    },
  };
}

/** The OpenAI Agents SDK: `run(agent, input, { stream: true })` on a scripted `Model`, tracing off. */
export function openAiAgentsContender(): Contender {
  setTracingDisabled(true);
  const checkpoint = checkpointTool();
  return {
    name: '@openai/agents 0.20 (stream)',
    async run(toolTurns) {
      const result = await run(agentFor(checkpoint, toolTurns), PROMPT, { stream: true, maxTurns: toolTurns + 1 });
      for await (const _event of result) {
        // Consume every streamed event, as an application would.
      }
      await result.completed;
      const turns = result.rawResponses.length;
      return expectComplete(this.name, String(result.finalOutput), turns, toolTurns);
    },
  };
}
