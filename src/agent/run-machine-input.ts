import type { Config } from '../config/config.js';
import { estimateContextTokens, estimateToolTokens } from '../context/token-estimate.js';
import { guardrailStopMessage, stopsRun } from '../core/guardrail.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { IN_DOUBT_ERROR, ToolResult } from '../core/tool-result.js';
import { MAIN_AGENT } from '../machines/agent-machine.js';
import type { AgentMachineInput, GuardrailStages, PendingCalls, StopInfo } from '../machines/agent-machine-types.js';
import { type InvalidCalls, invalidCallsStop } from '../machines/invalid-calls.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import { type ApprovalMap, gatePending } from './approval-controls.js';
import { invalidCallsSoFar } from './invalid-calls-so-far.js';
import type { TreeSpend } from './tree-spend.js';

/** What a run that owes no tool calls hands the machine. */
const NOTHING_PENDING: PendingCalls = Object.freeze({ calls: Object.freeze([]), concurrencySafe: Object.freeze([]) });

/** What one run's machine is started from, besides the agent's config and session. */
export interface RunStartParts {
  /** The tools of the agent in charge as the run starts. */
  readonly tools: ToolRegistry;
  /** True for `resume()`: the run goes on from the session's last one. */
  readonly resuming: boolean;
  /** Decisions given to `resume` on calls that wait for approval. */
  readonly approvals: ApprovalMap;
  /** What is wrong with the run's `output` schema, if anything: the run is refused with it. */
  readonly outputProblem: string | undefined;
  /** `RunOptions.outputRetries`, when given. */
  readonly outputRetries: number | undefined;
  /** Provider tokens per estimated token, as the agent's last run measured it. */
  readonly tokenScale: number;
  /** The run's live spend, for a sub-agent's run (the machine reads its ancestors' budgets). */
  readonly tree: TreeSpend | undefined;
}

/**
 * The machine's input for one run: the config's limits, the calls an interrupted run still
 * owes (gated by the policy of now; a decision given to `resume` is journaled here), the agent
 * in charge, and the context's size when the config limits it.
 */
export function runMachineInput(config: Config, session: Session, parts: RunStartParts): AgentMachineInput {
  const { tools, outputProblem } = parts;
  const resume = gatePending(session, tools, owedCalls(session, tools), parts.approvals);
  // A resumed run goes on with the invalid calls it had counted; a new run starts at none.
  const invalidCalls = parts.resuming ? invalidCallsSoFar(session.journal) : undefined;
  // A tripwire journaled before a crash is final: the resumed run ends with it (owed calls answered first).
  const tripped = parts.resuming ? crashedAfterTripwire(session.journal) : undefined;
  const ending = tripped !== undefined && resume.calls.length > 0 ? tripped : undefined;
  const refusal: StopInfo | undefined =
    outputProblem !== undefined
      ? { reason: 'output_invalid', message: outputProblem }
      : ending === undefined
        ? (tripped ?? crashedOverInvalidCalls(session, resume, invalidCalls, config.maxInvalidToolCalls))
        : undefined;
  return {
    budget: config.budget,
    maxParallelTools: config.maxParallelTools,
    maxInvalidToolCalls: config.maxInvalidToolCalls,
    resume,
    agent: session.activeAgent ?? MAIN_AGENT,
    ...(invalidCalls !== undefined ? { invalidCalls } : {}),
    ...(parts.outputRetries !== undefined ? { outputRetries: parts.outputRetries } : {}),
    ...(refusal !== undefined ? { refusal } : {}),
    ...(ending !== undefined ? { ending } : {}),
    ...contextInput(config, session, tools, parts.tokenScale),
    ...(parts.tree === undefined ? {} : { tree: parts.tree }),
    ...guardrailInput(config, session),
  };
}

/**
 * The `invalid_tool_calls` stop for a run resumed after a crash that came once a tool had its
 * `maxInvalidToolCalls`-th invalid call in a row, before the run's budgetCheck could stop it:
 * with nothing left to run, the resumed run would otherwise ask the model again. A run that
 * ended (with that stop or another) and is resumed goes on, as before.
 */
function crashedOverInvalidCalls(
  session: Session,
  resume: PendingCalls,
  counts: InvalidCalls | undefined,
  max: number,
): StopInfo | undefined {
  if (counts === undefined || resume.calls.length > 0 || lastRunEnded(session.journal)) return undefined;
  return invalidCallsStop(counts, max) ?? undefined;
}

/**
 * The `guardrail` stop of a run that crashed after a guardrail's tripwire (or failure) was
 * journaled and before its end was: the verdict is final (SPEC §16), so the resumed run asks
 * nothing, runs no tool and checks nothing again; it ends as the crashed run was ending.
 */
function crashedAfterTripwire(journal: readonly JournalEntry[]): StopInfo | undefined {
  for (let index = journal.length - 1; index >= 0; index--) {
    const entry = journal[index] as JournalEntry;
    if (entry.type === 'agent_end' || entry.type === 'agent_error') return undefined;
    if (entry.type === 'guardrail' && stopsRun(entry)) {
      return { reason: 'guardrail', message: guardrailStopMessage(entry) };
    }
  }
  return undefined;
}

/** Whether the journal's last run ended: every entry after an end belongs to a later run. */
function lastRunEnded(journal: readonly JournalEntry[]): boolean {
  const last = journal.at(-1);
  return last?.type === 'agent_end' || last?.type === 'agent_error';
}

/**
 * Which stages have guardrails; the input still needs its check unless the journal has a verdict
 * on it since the user's last message (a resumed run never checks the input twice).
 */
function guardrailInput(config: Config, session: Session): { guardrails?: GuardrailStages } {
  const { input, output, toolResult } = config.guardrails;
  if (input.length === 0 && output.length === 0 && toolResult.length === 0) return {};
  const has = { input: input.length > 0, output: output.length > 0, toolResult: toolResult.length > 0 };
  return { guardrails: { ...has, inputPending: has.input && !inputChecked(session.journal) } };
}

function inputChecked(journal: readonly JournalEntry[]): boolean {
  for (let index = journal.length - 1; index >= 0; index--) {
    const entry = journal[index] as JournalEntry;
    if (entry.type === 'guardrail' && entry.stage === 'input') return true;
    if (entry.type === 'user_message' && entry.author === undefined) return false;
  }
  return false;
}

/**
 * The calls an interrupted run still owes, for the machine: a call that never started runs; one
 * that started and has no result (in doubt) runs again only if its tool is idempotent, and is
 * otherwise answered `Error: interrupted: …` (it may or may not have taken effect).
 */
function owedCalls(session: Session, tools: ToolRegistry): PendingCalls {
  const calls = session.pendingToolCalls();
  if (calls.length === 0) return NOTHING_PENDING; // the usual case: no arrays to make per run
  const answers = calls.map((call) =>
    session.toolCallStarted(call.callId) && !tools.isIdempotent(call.name)
      ? ToolResult.error(IN_DOUBT_ERROR)
      : undefined,
  );
  return {
    calls,
    concurrencySafe: calls.map((call) => tools.isConcurrencySafe(call.name)),
    ...(answers.some((answer) => answer !== undefined) ? { answers } : {}),
  };
}

/**
 * The machine's context-size inputs: only when the config limits the context (estimating costs
 * a pass over it). `tokenScale` is the provider's tokens per estimated token from the agent's
 * last run, so a follow-up run's first request is measured as that provider counts.
 */
function contextInput(
  config: Config,
  session: Session,
  tools: ToolRegistry,
  tokenScale: number,
): { contextLimit?: number; contextTokens?: number; tokenScale?: number } {
  const limit = config.context?.maxTokens;
  if (limit === undefined) return {};
  const estimate = estimateContextTokens(session.messages) + estimateToolTokens(tools.definitions());
  return { contextLimit: limit, contextTokens: Math.ceil(estimate * tokenScale), tokenScale };
}
