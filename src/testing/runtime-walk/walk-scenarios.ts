import { z } from 'zod';
import { estimateContextTokens, estimateToolTokens } from '../../context/token-estimate.js';
import { ToolKind } from '../../core/tool-kind.js';
import type { TokenUsage } from '../../core/usage.js';
import { Session } from '../../session/session.js';
import type { Script, ScriptCall, ScriptTurn } from '../script.js';
import { type ScriptedToolSpec, scriptedRegistry } from './scripted-tools.js';
import { scenarioConfig } from './walk-agent.js';
import { runWhole } from './walk-path.js';
import type { RuntimeScenario } from './walk-types.js';

/**
 * Usage of `tokens` completion tokens and no prompt tokens: budgets see exact totals, and the
 * context's size stays the harness's own estimate (no provider report to scale it by).
 */
const used = (tokens: number): TokenUsage => ({ promptTokens: 0, completionTokens: tokens, totalTokens: tokens });
const call = (name: string, args: ScriptCall['arguments'] = {}): ScriptCall => ({ name, arguments: args });
const tools = (calls: readonly ScriptCall[], tokens = 10): ScriptTurn => ({
  kind: 'tools',
  text: [],
  calls,
  usage: used(tokens),
});
const answer = (text: string, tokens = 10): ScriptTurn => ({ kind: 'answer', text: [text], usage: used(tokens) });

const look: ScriptedToolSpec = { name: 'look' };
const slowLook: ScriptedToolSpec = { name: 'slow_look', ticks: 3 };
const save: ScriptedToolSpec = { name: 'save', kind: ToolKind.WRITE };
const deploy: ScriptedToolSpec = { name: 'deploy', kind: ToolKind.SHELL };
const answerSchema = z.object({ ok: z.boolean() });

/** Two turns of one `look` each, of `tokens` each, then an answer. */
const twoLooks = (tokens: number): Script => [
  tools([call('look')], tokens),
  tools([call('look')], tokens),
  answer('done'),
];

/** The conversations the walk drives by default, each aimed at a path the chart does not have. */
export const RUNTIME_SCENARIOS: readonly RuntimeScenario[] = [
  {
    name: 'two reads finish out of order',
    tools: [slowLook, look],
    script: [tools([call('slow_look'), call('look')]), answer('done')],
  },
  {
    name: 'a write and a read, then a follow-up',
    tools: [look, save],
    inputs: ['go', 'next'],
    script: [tools([call('look'), call('save')]), answer('saved'), tools([call('save')]), answer('done')],
  },
  {
    name: 'a handoff beside a call to the new agent’s tool',
    tools: [look],
    config: { permissions: { shell: 'ask' }, systemPrompt: 'You are the main agent.' },
    handoffs: [{ name: 'ops', instructions: 'You are ops.', tools: [deploy, look] }],
    script: [tools([call('transfer_to_ops'), call('deploy')]), tools([call('deploy')]), answer('deployed')],
  },
  {
    name: 'a summary compaction',
    tools: [look],
    config: { context: { maxTokens: 80, strategy: 'summarise', keepTurns: 1 } },
    script: [tools([call('look'), call('look')]), tools([call('look')]), tools([call('look')]), answer('done')],
  },
  {
    name: 'output retries around a tool turn',
    tools: [look],
    output: answerSchema,
    outputRetries: 2,
    script: [answer('nope'), tools([call('look')]), answer('nope'), answer('nope'), answer('{"ok":true}')],
  },
  {
    name: 'failing answers spend the token budget',
    output: answerSchema,
    config: { maxTotalTokens: 100 },
    script: [answer('nope', 60), answer('nope', 50), answer('{"ok":true}')],
  },
  {
    name: 'a sub-agent under the root’s budget',
    tools: [],
    config: { maxTotalTokens: 100, permissions: { shell: 'deny' } },
    subAgent: {
      name: 'helper',
      tools: [deploy, look],
      config: { maxTotalTokens: 10_000, permissions: { shell: 'allow' } },
      script: [tools([call('deploy')], 40), tools([call('look')], 40), tools([call('look')], 40), answer('helped')],
    },
    script: [tools([call('helper', { task: 'help' })], 10), answer('done')],
  },
];

/** A limit at `limit − 1`, `limit` and `limit + 1`, one scenario each. */
function around(
  name: string,
  limit: number,
  make: (value: number) => Omit<RuntimeScenario, 'name'>,
): RuntimeScenario[] {
  return [limit - 1, limit, limit + 1].map((value) => ({
    ...make(value),
    name: `${name} at ${value} (boundary ${limit})`,
  }));
}

/** Where the context's size lands at the start of the second run of `scenario` (no compaction before). */
async function secondRunContext(scenario: RuntimeScenario): Promise<number> {
  const probe = { ...scenario, inputs: [scenario.inputs?.[0] ?? 'go'] };
  const config = scenarioConfig(probe);
  const whole = await runWhole(probe, config);
  const next = Session.replay(whole.session.journal, config);
  next.addUserMessage(scenario.inputs?.[1] ?? 'next');
  const registry = scriptedRegistry(config, scenario.tools ?? [], []);
  return Math.ceil(estimateContextTokens(next.messages) + estimateToolTokens(registry.definitions()));
}

/**
 * Every limit at its boundary (limit − 1, limit, limit + 1): turns, tokens, cost, the context,
 * invalid calls in a row, output retries and the parallel cap.
 */
export async function boundaryScenarios(): Promise<RuntimeScenario[]> {
  const base = { tools: [look] };
  const contextScript: Script = [
    tools([call('look')], 1),
    tools([call('look')], 1),
    answer('done', 1),
    answer('again', 1),
  ];
  const huge = {
    name: 'context probe',
    ...base,
    inputs: ['go', 'next'],
    script: contextScript,
    config: { context: { maxTokens: 1_000_000 } },
  };
  const context = await secondRunContext(huge);
  return [
    ...around('turns', 3, (maxTurns) => ({ ...base, script: twoLooks(40), config: { maxTurns } })),
    ...around('tokens', 80, (maxTotalTokens) => ({ ...base, script: twoLooks(40), config: { maxTotalTokens } })),
    ...around('cost', 80, (cents) => ({
      ...base,
      script: twoLooks(40),
      config: { maxCost: cents / 1000, inputRatePer1k: 0, outputRatePer1k: 1 },
    })),
    ...around('context', context, (maxTokens) => ({
      ...huge,
      config: { context: { maxTokens, strategy: 'summarise', keepTurns: 1 } },
    })),
    ...around('invalid calls', 2, (maxInvalidToolCalls) => ({
      ...base,
      script: [
        tools([call('look', { x: 'bad' })]),
        tools([call('look', { x: 'bad' })]),
        tools([call('look')]),
        answer('done'),
      ],
      config: { maxInvalidToolCalls },
    })),
    ...around('output retries', 2, (outputRetries) => ({
      output: answerSchema,
      outputRetries,
      script: [answer('nope'), answer('nope'), answer('{"ok":true}')],
    })),
    ...around('parallel cap', 3, (maxParallelTools) => ({
      tools: [slowLook],
      script: [tools([call('slow_look'), call('slow_look'), call('slow_look')]), answer('done')],
      config: { maxParallelTools },
    })),
  ];
}
