import { z } from 'zod';
import type { Guardrail, GuardrailAnswer } from '../../src/guardrails.js';
import {
  Agent,
  Config,
  type ConfigOptions,
  defineTool,
  ScriptedClient,
  Session,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { tempWorkspace } from '../support/workspace.js';

/** A read tool that answers `output` (a secret, say). */
export function fetchTool(output: string) {
  return defineTool({
    name: 'fetch',
    description: 'Fetch a page.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: () => output,
  });
}

/** A guardrail that answers the same every time and records what it saw. */
export function fixed(name: string, answer: GuardrailAnswer, seen: string[] = []): Guardrail {
  return {
    name,
    check: (value) => {
      seen.push(value);
      return answer;
    },
  };
}

/** An agent over a scripted model and one `fetch` tool, with the given guardrails. */
export function guardedAgent(
  turns: ConstructorParameters<typeof ScriptedClient>[0],
  guardrails: ConfigOptions['guardrails'],
  options: { output?: string; budget?: ConfigOptions['budget'] } = {},
) {
  const config = new Config({
    cwd: tempWorkspace(),
    guardrails,
    ...(options.budget ? { budget: options.budget } : {}),
  });
  const client = new ScriptedClient(turns);
  const tools = new ToolRegistry(config).register(fetchTool(options.output ?? 'page text'));
  const session = new Session(config);
  const agent = new Agent(config, { session, client, tools });
  return { agent, client, session, config };
}

/** The guardrail entries of a journal, without their type. */
export function verdictsOf(session: Session) {
  return session.journal.filter((entry) => entry.type === 'guardrail').map(({ type: _, ...verdict }) => verdict);
}
