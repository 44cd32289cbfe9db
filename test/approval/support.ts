import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  type ConfigOptions,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import { textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A turn that asks for several calls at once. */
export function callsTurn(...calls: readonly [callId: string, name: string, args?: Record<string, unknown>][]) {
  return [
    ...calls.map(([callId, name, args]) =>
      StreamEvent.toolCallComplete({ callId, name, arguments: (args ?? {}) as Record<string, never> }),
    ),
    StreamEvent.messageComplete(usage(5, 2)),
  ];
}

/** `look` (read), `change` (write), `run` (shell): each records its runs in `runs`. */
export function approvalRegistry(config: Config, runs: string[]) {
  const tool = (name: string, kind: 'read' | 'write' | 'shell') =>
    defineTool({
      name,
      description: `${kind} tool`,
      kind,
      schema: z.object({}).passthrough(),
      execute: () => {
        runs.push(name);
        return `${name} done`;
      },
    });
  return new ToolRegistry(config).register(tool('look', 'read'), tool('change', 'write'), tool('run', 'shell'));
}

/** An agent whose policy asks before `write` and `shell` calls. */
export function approvalAgent(turns: ConstructorParameters<typeof ScriptedClient>[0], options: ConfigOptions = {}) {
  const config = new Config({
    cwd: tempWorkspace(),
    permissions: { read: 'allow', write: 'ask', shell: 'ask' },
    ...options,
  });
  const runs: string[] = [];
  const client = new ScriptedClient(turns);
  const registry = approvalRegistry(config, runs);
  const session = new Session(config, { client, registry });
  return { agent: new Agent(config, { session }), session, config, runs, client, registry };
}

/** Reads a run, answering each approval request with `decide` (sync, from the reader). */
export async function runDeciding(
  run: AsyncIterable<AgentEvent>,
  decide: (event: AgentEvent<'tool_approval_request'>) => void,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'tool_approval_request') decide(event);
  }
  return events;
}

export { textTurn };
