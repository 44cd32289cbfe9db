import { z } from 'zod';
import { Agent, type ResumeOptions } from '../../agent/agent.js';
import { runOutput } from '../../agent/output-check.js';
import { Config, type ConfigOptions } from '../../config/config.js';
import { HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { ModelClient } from '../../core/model-client.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { ToolLike } from '../../tools/tool.js';
import type { Cassette } from './cassette.js';
import { compareJournals, endsARun } from './compare-journal.js';
import type { CassetteReport, Divergence } from './divergence.js';
import { type CassetteInput, loadCassette } from './load-cassette.js';
import { RecordedApprovals } from './recorded-approvals.js';
import { type RecordedRun, recordedRuns } from './recorded-runs.js';
import { RecordedTools } from './recorded-tools.js';
import { SecretRedactor } from './redact-secrets.js';
import { ReplayClient } from './replay-client.js';
import { type MatchOptions, StepMatcher } from './step-matcher.js';

/** Builds the agent to replay with, from the user's current code, around the replay's client. */
export type MakeAgent = (client: ModelClient) => Agent | Promise<Agent>;

/** An agent described by its configuration and tools (the replay builds it). */
export interface AgentSpec {
  /** Its configuration. */
  readonly config?: Config | ConfigOptions;
  /** Its tools. */
  readonly tools?: ToolRegistry | readonly ToolLike[];
}

/** Options of {@link replayCassette}. */
export interface ReplayOptions extends MatchOptions {
  /**
   * Builds a fresh agent that must send its requests to `client` (wrapping it, as an adapter
   * layer would, is fine). Give this or `agent`.
   */
  readonly makeAgent?: MakeAgent;
  /** The agent as configuration and tools, when no `makeAgent` is given. */
  readonly agent?: AgentSpec;
  /**
   * `recorded` (default): tool calls are answered from the recording and no tool runs; `live`:
   * the tools run and their results are compared with the recorded ones.
   */
  readonly tools?: 'recorded' | 'live';
  /**
   * More patterns (regular expression sources) to redact from the new run's requests and journal,
   * besides the cassette's own; `updateCassette` keeps them in the rewritten cassette.
   */
  readonly redact?: readonly string[];
  /** Environment whose secret variables' values are redacted from the new run (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A built-in client (`OpenAIClient`, `AnthropicClient`) configured as the recording's: each
   * request the run sends is converted by it (`wireRequest`, nothing is sent) and compared with
   * the provider body the cassette recorded (`recordCassette`'s `wire: true`), kind `wire request`.
   */
  readonly wire?: ModelClient;
  /**
   * The zod schema of the structured output the recorded runs asked for (`run(input, { output })`).
   * By default it is rebuilt from the JSON Schema a recorded cassette's requests carry; a
   * journal does not keep it, so replaying a structured run from a journal needs it.
   */
  readonly output?: z.ZodType;
}

/** What `resume()` throws when the new run has nothing (or other calls) to resume. */
const RESUME_REFUSALS: ReadonlySet<string> = new Set(['nothing_to_resume', 'invalid_argument']);

/** A finished replay: the report, and what an update needs. */
export interface ReplayRun {
  /** What was found. */
  readonly report: CassetteReport;
  /** The cassette replayed. */
  readonly cassette: Cassette;
  /** The replay's model: what the run sent and what was served to it. */
  readonly client: ReplayClient;
  /** The agent that ran. */
  readonly agent: Agent;
  /** The redactor the run's requests and journal were compared through. */
  readonly redactor: SecretRedactor;
}

async function buildAgent(options: ReplayOptions, client: ModelClient): Promise<Agent> {
  if (options.makeAgent !== undefined) return options.makeAgent(client);
  if (options.agent === undefined) {
    throw new HarnessError('invalid_argument', 'replayCassette needs makeAgent (a function of the client) or agent');
  }
  const { config: given, tools } = options.agent;
  const config = given instanceof Config ? given : new Config(given ?? {});
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(config).register(...(tools ?? []));
  return new Agent(config, { client, tools: registry });
}

/**
 * The schema structured runs are replayed with: `options.output`, else the one the recording's
 * requests asked for (rebuilt from its JSON Schema; `client` compares a request asking for the
 * rebuilt one as asking for the recorded one), else undefined.
 */
function outputSchema(cassette: Cassette, options: ReplayOptions, client: ReplayClient): z.ZodType | undefined {
  if (options.output !== undefined) return options.output;
  const recorded = cassette.turns.find((turn) => turn.request.output !== undefined)?.request.output;
  if (recorded === undefined) return undefined;
  try {
    const rebuilt = z.fromJSONSchema(recorded.schema as Parameters<typeof z.fromJSONSchema>[0]);
    client.rebuiltOutput(runOutput(rebuilt).request, recorded);
    return rebuilt;
  } catch (error) {
    throw new HarnessError(
      'invalid_cassette',
      `the structured output schema the recording asked for cannot be rebuilt (${String(error)}); pass replayCassette's output option`,
    );
  }
}

/** How each recorded run is started again: `run()` or `resume()` options, structured output included. */
function runOptions(runs: readonly RecordedRun[], schema: z.ZodType | undefined): ResumeOptions[] {
  return runs.map((run, index): ResumeOptions => {
    if (run.outputRetries === undefined) return run.approvals === undefined ? {} : { approvals: run.approvals };
    if (schema === undefined) {
      throw new HarnessError(
        'invalid_argument',
        `replayCassette: recorded run ${index + 1} asked for structured output, and a journal does not keep its schema; pass the output option (the zod schema your code asks with)`,
      );
    }
    return {
      output: schema,
      outputRetries: run.outputRetries,
      ...(run.approvals === undefined ? {} : { approvals: run.approvals }),
    };
  });
}

/**
 * The new journal with each sub-agent's session id (`<session id>.t<turn>.<call id>`) written as
 * the recording's where only the parent's session id differs: a replay runs in a new session.
 */
function sameChildSessions(
  recorded: readonly JournalEntry[],
  actual: readonly JournalEntry[],
  sessionId: string | undefined,
): readonly JournalEntry[] {
  if (sessionId === undefined) return actual;
  return actual.map((entry, index) => {
    const expected = recorded[index];
    if (entry.type !== 'tool_started' || expected?.type !== 'tool_started') return entry;
    const [mine, theirs] = [entry.childSessionId, expected.childSessionId];
    if (mine === undefined || theirs === undefined || !mine.startsWith(`${sessionId}.`)) return entry;
    const rest = mine.slice(sessionId.length);
    return theirs.endsWith(rest) && theirs !== rest ? { ...entry, childSessionId: theirs } : entry;
  });
}

function byStep(a: Divergence, b: Divergence): number {
  return a.step.entryIndex - b.step.entryIndex;
}

/** Replays and returns the report with what the replay produced (see {@link replayCassette}). */
export async function replayRun(input: CassetteInput, options: ReplayOptions): Promise<ReplayRun> {
  if (options.wire !== undefined && options.wire.wireRequest === undefined) {
    throw new HarnessError(
      'invalid_argument',
      `replayCassette: wire needs a client that exposes its request body (wireRequest), as OpenAIClient and AnthropicClient do; ${options.wire.provider ?? 'this client'} does not`,
    );
  }
  const matcher = new StepMatcher(options);
  const client = new ReplayClient(matcher, options.wire);
  const agent = await buildAgent(options, client);
  const cassette = await loadCassette(input, agent.config.systemPrompt);
  const runs = recordedRuns(cassette.journal);
  if (runs[0]?.input === undefined) {
    throw new HarnessError('invalid_cassette', 'the cassette holds no user message to start a run with');
  }
  const started = runOptions(runs, outputSchema(cassette, options, client));
  const redactor = new SecretRedactor([...cassette.redact, ...(options.redact ?? [])], options.env);
  const truncated = !endsARun(cassette.journal) || cassette.turns.some((turn) => turn.answer === undefined);
  const session = agent.session;
  client.begin(cassette, session, redactor, truncated);
  const uninstallTools =
    (options.tools ?? 'recorded') === 'recorded'
      ? new RecordedTools(cassette.journal, matcher, session).install(agent.tools)
      : undefined;
  const approvals = new RecordedApprovals(cassette.journal, runs, matcher, agent);
  approvals.install();
  let resuming = false;
  try {
    for (const [index, run] of runs.entries()) {
      approvals.begin(index);
      resuming = run.input === undefined;
      // Each recorded run again as it was started: a user message, or a resume (after a suspend
      // or a failure) with the decisions it was given up front; structured output as asked.
      const how = started[index] ?? {};
      const events = run.input !== undefined ? agent.run(run.input, how) : agent.resume(how);
      for await (const _ of events) {
        // drained: the replay compares the journal, not the events
      }
      if (!matcher.keepGoing && matcher.found.length > 0) break;
    }
  } catch (error) {
    // A resume the new run cannot make (its run ended otherwise, so nothing is left to resume or
    // the recorded decisions name no waiting call): the journals already differ, and the
    // comparison below reports where. Any other error is the caller's to see.
    if (!resuming || !(error instanceof HarnessError) || !RESUME_REFUSALS.has(error.reason)) throw error;
  } finally {
    approvals.close();
    uninstallTools?.();
  }
  const stoppedAt = matcher.found.reduce(
    (least, found) => Math.min(least, found.step.entryIndex + 1),
    Number.POSITIVE_INFINITY,
  );
  compareJournals(
    cassette.journal,
    sameChildSessions(cassette.journal, session.journal, session.id),
    matcher,
    redactor,
    matcher.keepGoing ? Number.POSITIVE_INFINITY : stoppedAt,
  );
  const all = matcher.found.slice().sort(byStep);
  const [first] = all;
  const report: CassetteReport =
    first === undefined
      ? { ok: true, ...(matcher.keepGoing ? { divergences: [] } : {}) }
      : { ok: false, divergence: first, ...(matcher.keepGoing ? { divergences: all } : {}) };
  return { report, cassette, client, agent, redactor };
}

/**
 * Re-drives a recorded run with the current code (SPEC §17): a fresh agent (`makeAgent` or
 * `agent`) runs the recorded user messages against a model that matches each request with the
 * recorded one and serves the recorded answer, deltas included; tool calls are answered from the
 * recording (or, with `tools: 'live'`, run and compared). The new journal (tool calls and
 * results, transitions, the stop reason) is compared with the recorded one. Returns `{ ok }`,
 * or the first divergence by step (with `continueOnDivergence`, all of them). A truncated
 * recording diverges with "recording ended at step N"; a run asking for more model turns than
 * were recorded diverges at the first extra request; neither waits.
 */
export async function replayCassette(input: CassetteInput, options: ReplayOptions): Promise<CassetteReport> {
  return (await replayRun(input, options)).report;
}
