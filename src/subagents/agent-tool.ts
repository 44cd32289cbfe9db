import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { type AgentRunContext, agentRunOf } from '../agent/agent-run-context.js';
import { agentRunMachine } from '../agent/provide-machine.js';
import { Config } from '../config/config.js';
import type { AgentEvent } from '../core/agent-event.js';
import { HarnessError } from '../core/errors.js';
import type { ModelClient } from '../core/model-client.js';
import { ToolKind } from '../core/tool-kind.js';
import { ToolResult } from '../core/tool-result.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { defineTool, type ToolInvocation, type ToolLike } from '../tools/tool.js';
import { markChildAgent } from './child-agent.js';
import { narrowPolicy } from './child-policy.js';
import { openChildSession, resultOfEnd } from './child-session.js';

/** Options of {@link agentTool}. */
export interface AgentToolOptions {
  /** The tool's name, which the model calls (and the child agent's name). */
  readonly name: string;
  /** What the child agent does, for the model deciding whether to delegate. */
  readonly description: string;
  /** The child's configuration: its budget, limits and `maxAgentDepth` for its own children. */
  readonly config: Config;
  /** The child's model. */
  readonly client: ModelClient;
  /** The child's tools (none by default). */
  readonly registry?: ToolRegistry;
  /** The child's instructions: its system message (instead of `config.systemPrompt`). */
  readonly instructions?: string;
  /** What the child's tools do to the world, for the parent's tool policy. Default `other`. */
  readonly kind?: ToolKind;
  /** May run beside other safe calls of the parent's turn. Default false. */
  readonly concurrencySafe?: boolean;
}

/** What a child agent runs with: its configuration, its client and its tools. */
interface ChildSpec {
  readonly config: Config;
  readonly client: ModelClient;
  readonly registry: ToolRegistry | undefined;
}

/** The arguments the model calls an agent tool with. */
const schema = z.object({ task: z.string().min(1).describe('What the agent should do, in full.') });

/**
 * A tool whose call runs a child agent on `{ task }`: the child's final answer is the result, and
 * its `agent_error` is `Error: <reason>: <message>`. The child runs inside the call's spawned
 * tool actor, in its own session (`<parent id>.t<turn>.<callId>`, journaled with the call's
 * start, and kept in the parent's store when the parent has one); its usage counts into the
 * parent's budgets (journaled with the call's result); the parent's abort and wall-clock limit
 * reach it through the call's signal. A call that would nest agents deeper than the parent's
 * `Config.maxAgentDepth` answers `Error: agent_depth: …`.
 *
 * It is `idempotent`: a call left in doubt by a crash runs again on resume and finds its child's
 * session, using the recorded answer of a child that ended and resuming one that was cut off, so
 * a finished child never runs twice. Without a store the parent session keeps its children in
 * memory (`Session.children`, saved by `toJSON`): a child whose journal is not there runs again.
 */
export function agentTool(options: AgentToolOptions): ToolLike<typeof schema> {
  checkOptions(options);
  const config =
    options.instructions === undefined ? options.config : options.config.withSystemPrompt(options.instructions);
  const spec: ChildSpec = { config, client: options.client, registry: options.registry };
  const tool = defineTool({
    name: options.name,
    description: options.description,
    kind: options.kind ?? ToolKind.OTHER,
    concurrencySafe: options.concurrencySafe ?? false,
    idempotent: true,
    schema,
    execute: (invocation) => runChild(options.name, spec, invocation),
  });
  const child = {
    name: options.name,
    machine: agentRunMachine,
    registry: options.registry,
    maxAgentDepth: config.maxAgentDepth,
  };
  return markChildAgent(Object.assign(tool, { runsAgent: true as const }), child);
}

/** Runs (or finds, or resumes) the call's child agent and answers with its outcome. */
async function runChild(
  name: string,
  spec: ChildSpec,
  invocation: ToolInvocation<{ task: string }>,
): Promise<ToolResult> {
  const run = agentRunOf(invocation.run);
  if (run === undefined || run.childSessionId === undefined)
    return ToolResult.error(`agent tool '${name}' runs a child agent: call it through an Agent`);
  const depth = run.depth + 1;
  if (depth > run.maxAgentDepth)
    return ToolResult.error(
      `agent_depth: agent '${name}' would run at depth ${depth}, deeper than maxAgentDepth ${run.maxAgentDepth}`,
    );
  // The child's policy is its own, narrowed by its parent's: it may never do what its parent may not.
  const config =
    run.permissions === undefined
      ? spec.config
      : spec.config.withPermissions(narrowPolicy(spec.config.permissions, run.permissions, spec.registry));
  const child = await openChildSession(config, run.childSessionId, run.store, run.children);
  const { session } = child;
  try {
    if (child.kind === 'ended') {
      run.addUsage(session.totalUsage); // never counted: the parent journaled no result for it
      return child.result;
    }
    return await runToEnd(name, spec, child.kind, session, depth, invocation, run);
  } finally {
    await session.close();
  }
}

async function runToEnd(
  name: string,
  spec: ChildSpec,
  kind: 'new' | 'interrupted',
  session: Session,
  depth: number,
  invocation: ToolInvocation<{ task: string }>,
  run: AgentRunContext,
): Promise<ToolResult> {
  // Usage counts into the parent as the child's requests report it, so an abort loses none of it.
  if (session.totalUsage.totalTokens > 0) run.addUsage(session.totalUsage);
  const stops: (() => void)[] = [];
  const stop = session.onAppend((entry) => {
    if (entry.type === 'usage') run.addUsage(entry.usage);
    else if (entry.type === 'tool_result' && entry.usage !== undefined) run.addUsage(entry.usage);
  });
  try {
    const agent = new Agent(session.config, {
      session,
      client: spec.client,
      ...(spec.registry ? { tools: spec.registry } : {}),
      depth,
      ...(run.spend ? { parentSpend: run.spend } : {}),
    });
    run.adopt({ callId: invocation.callId, name, sessionId: session.id ?? '', depth, agent });
    // The child's `ask` reaches the parent's approver, as deep as agents nest.
    const relay = agent.events.subscribe((event) => {
      if (event.type === 'tool_approval_request') run.relayApproval?.(name, event.data, agent);
    });
    stops.push(relay);
    const options = { signal: invocation.signal };
    const events = kind === 'new' ? agent.run(invocation.params.task, options) : agent.resume(options);
    let last: AgentEvent | undefined;
    for await (const event of events) last = event;
    return (
      resultOfEnd(session.journal.at(-1)) ??
      ToolResult.error(`internal_error: agent '${name}' ended without an answer (${last?.type ?? 'no events'})`)
    );
  } finally {
    stop();
    for (const undo of stops) undo();
  }
}

function checkOptions(options: AgentToolOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new HarnessError('invalid_argument', 'agentTool(options): options must be an object');
  if (!(options.config instanceof Config))
    throw new HarnessError('invalid_argument', `agentTool '${String(options.name)}': config must be a Config`);
  if (typeof options.client?.chatCompletion !== 'function')
    throw new HarnessError('invalid_argument', `agentTool '${String(options.name)}': client must be a model client`);
  if (options.instructions !== undefined && typeof options.instructions !== 'string')
    throw new HarnessError('invalid_argument', `agentTool '${String(options.name)}': instructions must be a string`);
}
