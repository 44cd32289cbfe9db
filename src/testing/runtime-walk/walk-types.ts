import type { z } from 'zod';
import type { Config, ConfigOptions } from '../../config/config.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { Script } from '../script.js';
import type { ScriptedToolSpec, ToolExecution } from './scripted-tools.js';
import type { WalkRequest } from './walk-model.js';

/** An agent the conversation can be handed to in a scenario (`transfer_to_<name>` among the main agent's tools). */
export interface WalkHandoff {
  readonly name: string;
  readonly instructions: string;
  readonly tools: readonly ScriptedToolSpec[];
}

/** A sub-agent a scenario's main agent can call (an `agentTool` named `name`). */
export interface WalkSubAgent {
  readonly name: string;
  /** The sub-agent's model. */
  readonly script: Script;
  readonly tools?: readonly ScriptedToolSpec[];
  /** The sub-agent's own configuration (its budget, its policy). */
  readonly config?: ConfigOptions;
}

/** One conversation the runtime walk drives the real agent through. */
export interface RuntimeScenario {
  /** Names the scenario in counterexample paths. */
  readonly name: string;
  /** The model's turns, in order (past the end it answers `done`). */
  readonly script: Script;
  /** The main agent's tools. */
  readonly tools?: readonly ScriptedToolSpec[];
  /** The configuration (budget, limits, context, permissions). */
  readonly config?: ConfigOptions;
  /** The user's messages, one `run()` each, in order. Default `['go']`. */
  readonly inputs?: readonly string[];
  /** Ask each run for structured output of this schema. */
  readonly output?: z.ZodType;
  /** `RunOptions.outputRetries` of each run. */
  readonly outputRetries?: number;
  /** Agents the conversation can be handed to. */
  readonly handoffs?: readonly WalkHandoff[];
  /** A sub-agent the main agent can call. */
  readonly subAgent?: WalkSubAgent;
  /** How the walk answers approval requests (default `approve`). */
  readonly approvals?: 'approve' | 'deny';
}

/** The agents of a scenario, by name (`main` for the session's own): instructions and tool names. */
export type WalkAgents = ReadonlyMap<
  string,
  { readonly instructions: string | undefined; readonly tools: readonly string[] }
>;

/** What a rule sees of one path of the walk. */
export interface WalkView {
  readonly scenario: RuntimeScenario;
  readonly config: Config;
  /** The session's journal at the end of the path. */
  readonly journal: readonly JournalEntry[];
  /** Where each run of the path began in the journal (the first at 0; a resumed run at its cut). */
  readonly runStarts: readonly number[];
  /** For a path resumed after a crash: how many entries the journal held when it crashed (the last crash). */
  readonly resumedAt: number | undefined;
  /** The requests the main agent's model received on this path (since the last crash). */
  readonly requests: readonly WalkRequest[];
  /** The scripted tools' executions on this path (since the last crash), in order. */
  readonly executions: readonly ToolExecution[];
  /** The journals of the sub-agents the path's runs started, by session id. */
  readonly children: ReadonlyMap<string, readonly JournalEntry[]>;
  /** Every scripted tool of the scenario (the main agent's, handoff targets', the sub-agent's), by name. */
  readonly tools: ReadonlyMap<string, ScriptedToolSpec>;
  /** The scenario's agents. */
  readonly agents: WalkAgents;
}

/**
 * A rule over one path of a runtime walk: what is wrong (one problem, several, or none). It is
 * reported under the function's name, with the path. Rules must depend only on the view.
 */
export type RuntimeRule = (view: WalkView) => string | readonly string[] | undefined;

/** A broken rule, with the path that shows it. */
export interface RuntimeFinding {
  /** The rule's name: a loop invariant, a walk rule, or your rule's function name. */
  readonly rule: string;
  readonly problem: string;
  /** How to reach it: the scenario, its script, each run, crash and fork in order. */
  readonly path: readonly string[];
}

/** What {@link walkRuntime} found. */
export interface RuntimeWalkReport {
  /** Paths walked (whole runs, crashes and resumes, forks). */
  readonly paths: number;
  /** Journal entries checked, over every path. */
  readonly entries: number;
  /** Every broken rule, once per rule and problem, with the first path that showed it. */
  readonly findings: readonly RuntimeFinding[];
}
