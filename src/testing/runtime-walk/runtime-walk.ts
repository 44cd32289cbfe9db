import type { Config } from '../../config/config.js';
import { HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { checkLoopInvariants } from '../invariants/loop-invariants.js';
import { formatScript } from '../script.js';
import { byDepth } from '../test-depth.js';
import { scenarioAgents, scenarioConfig, scenarioTools } from './walk-agent.js';
import { type PathOutcome, runForked, runResumed, runWhole } from './walk-path.js';
import { RUNTIME_RULES } from './walk-rules.js';
import type { RuntimeFinding, RuntimeRule, RuntimeScenario, RuntimeWalkReport, WalkView } from './walk-types.js';

/** Options of {@link walkRuntime}. */
export interface RuntimeWalkOptions {
  /** The conversations to walk. */
  readonly scenarios: readonly RuntimeScenario[];
  /** Your own rules over each path's journal, beside the built-in ones. */
  readonly rules?: readonly RuntimeRule[];
  /**
   * Crashes per path: 1 cuts each whole run at every entry; 2 also cuts each resumed run again
   * at every entry after the first cut; 0 walks whole runs only. Default 1, and 2 with
   * `TEST_DEPTH=deep`.
   */
  readonly crashes?: 0 | 1 | 2;
  /**
   * Where to fork each whole run and send a new message: `points` after each handoff, each call's
   * start and each run's end; `every` after every entry; `none`. Default `points`, and `every`
   * with `TEST_DEPTH=deep`.
   */
  readonly forks?: 'points' | 'every' | 'none';
}

/** What the walk collects. */
interface Walk {
  readonly rules: readonly [string, RuntimeRule][];
  readonly findings: RuntimeFinding[];
  readonly seen: Set<string>;
  paths: number;
  entries: number;
}

const asList = (found: string | readonly string[] | undefined): readonly string[] =>
  found === undefined ? [] : typeof found === 'string' ? [found] : found;

function entryText(journal: readonly JournalEntry[], at: number): string {
  const entry = journal[at - 1];
  if (entry === undefined) return 'before entry 0';
  const call = 'callId' in entry ? ` ${entry.callId}` : entry.type === 'transition' ? ` ${entry.from}→${entry.to}` : '';
  return `after entry ${at - 1} (${entry.type}${call})`;
}

/** Checks one path with the loop invariants and every rule; notes each new problem with `path`. */
function check(walk: Walk, view: WalkView, path: readonly string[]): void {
  walk.paths++;
  walk.entries += view.journal.length;
  const note = (rule: string, problem: string) => {
    const id = `${view.scenario.name}\u0000${rule}\u0000${problem}`;
    if (walk.seen.has(id)) return;
    walk.seen.add(id);
    walk.findings.push({ rule, problem, path });
  };
  for (const violation of checkLoopInvariants(view.journal, { config: view.config }))
    note(violation.rule, violation.message);
  for (const [name, rule] of walk.rules) for (const problem of asList(rule(view))) note(name, problem);
}

/** The entries after which a `points` walk forks: a handoff, a call's start (left unanswered), a run's end. */
function isForkPoint(entry: JournalEntry | undefined): boolean {
  const type = entry?.type;
  return type === 'handoff' || type === 'tool_started' || type === 'agent_end' || type === 'agent_error';
}

interface Base {
  readonly scenario: RuntimeScenario;
  readonly config: Config;
  readonly tools: WalkView['tools'];
  readonly agents: WalkView['agents'];
}

function viewOf(base: Base, outcome: PathOutcome, earlier: readonly number[], resumedAt: number | undefined): WalkView {
  return {
    ...base,
    journal: outcome.session.journal,
    runStarts: [...earlier, ...outcome.runStarts],
    resumedAt,
    requests: outcome.requests,
    executions: outcome.executions,
    children: outcome.session.children.journals(),
  };
}

async function walkCrashes(
  walk: Walk,
  base: Base,
  from: { journal: readonly JournalEntry[]; runStarts: readonly number[]; after: number; path: readonly string[] },
  depth: number,
): Promise<void> {
  if (depth === 0) return;
  for (let at = from.after + 1; at <= from.journal.length; at++) {
    const outcome = await runResumed(base.scenario, base.config, from.journal, at);
    if (outcome === undefined) continue;
    const path = [
      ...from.path,
      `crash ${entryText(from.journal, at)}; Session.load; resume() → ${outcome.session.journal.length} entries`,
    ];
    const earlier = from.runStarts.filter((start) => start < at);
    const view = viewOf(base, outcome, earlier, at);
    check(walk, view, path);
    if (depth > 1)
      await walkCrashes(walk, base, { journal: view.journal, runStarts: view.runStarts, after: at, path }, depth - 1);
  }
}

async function walkScenario(walk: Walk, scenario: RuntimeScenario, options: RuntimeWalkOptions): Promise<void> {
  const config = scenarioConfig(scenario);
  const base: Base = { scenario, config, tools: scenarioTools(scenario), agents: scenarioAgents(scenario, config) };
  const whole = await runWhole(scenario, config);
  const inputs = (scenario.inputs ?? ['go']).map((input) => `run(${JSON.stringify(input)})`).join(', ');
  const start = [`scenario '${scenario.name}'`, ...formatScript(scenario.script).split('\n')];
  const path = [...start, `${inputs} → ${whole.session.journal.length} entries`];
  const view = viewOf(base, whole, [], undefined);
  check(walk, view, path);
  const crashes = options.crashes ?? byDepth({ default: 1, deep: 2 });
  await walkCrashes(walk, base, { journal: view.journal, runStarts: view.runStarts, after: 0, path }, crashes);
  const forks = options.forks ?? byDepth({ default: 'points', deep: 'every' });
  for (let at = 1; at <= view.journal.length; at++) {
    if (forks === 'none' || (forks === 'points' && !isForkPoint(view.journal[at - 1]))) continue;
    const outcome = await runForked(scenario, config, whole.session, at);
    const earlier = view.runStarts.filter((begin) => begin < at);
    const forked = [
      ...path,
      `fork ${entryText(view.journal, at)}; run("again") → ${outcome.session.journal.length} entries`,
    ];
    check(walk, viewOf(base, outcome, earlier, undefined), forked);
  }
}

/** A stalling turn never ends without a clock or an abort, and the walk has neither. */
function refuseStalls(scenario: RuntimeScenario): void {
  for (const [whose, script] of [
    ['', scenario.script],
    [` (sub-agent '${scenario.subAgent?.name}')`, scenario.subAgent?.script ?? []],
  ] as const) {
    const stall = script.findIndex((turn) => turn.kind === 'stall');
    if (stall >= 0)
      throw new HarnessError(
        'invalid_argument',
        `walkRuntime: scenario '${scenario.name}'${whose} turn ${stall + 1} stalls: the walk has no clock to end it`,
      );
  }
}

/**
 * Drives the real agent (its machine with every effect: model requests, tool calls, the journal
 * and its store, handoffs, sub-agents, compaction) through each scenario with a scripted model
 * and scripted tools, and cuts every run at every journal entry: a crash there (the prefix
 * stored, `Session.load`, `resume()`); and forks it (`Session.fork`, a new message) after each
 * handoff, call start and run end (after every entry with `forks: 'every'`). After
 * each path it checks the journal with the loop invariants, the walk's own rules
 * ({@link RUNTIME_RULES}) and yours. Deterministic: no clock, no randomness; the model answers
 * by where the conversation is. A scenario with a stalling turn is refused (`invalid_argument`).
 * See docs/testing.md.
 */
export async function walkRuntime(options: RuntimeWalkOptions): Promise<RuntimeWalkReport> {
  for (const scenario of options.scenarios) refuseStalls(scenario);
  const rules: [string, RuntimeRule][] = [
    ...Object.entries(RUNTIME_RULES),
    ...(options.rules ?? []).map((rule): [string, RuntimeRule] => [rule.name === '' ? 'rule' : rule.name, rule]),
  ];
  const walk: Walk = { rules, findings: [], seen: new Set(), paths: 0, entries: 0 };
  for (const scenario of options.scenarios) await walkScenario(walk, scenario, options);
  return { paths: walk.paths, entries: walk.entries, findings: walk.findings };
}
