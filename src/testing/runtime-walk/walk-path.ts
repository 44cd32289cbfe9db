import type { Agent } from '../../agent/agent.js';
import type { Config } from '../../config/config.js';
import { HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { Session } from '../../session/session.js';
import { MemoryStore } from '../../stores/memory-store.js';
import type { ToolExecution } from './scripted-tools.js';
import { scenarioAgent } from './walk-agent.js';
import type { WalkRequest } from './walk-model.js';
import type { RuntimeScenario } from './walk-types.js';

/** What one path of the walk left: its session and what its last agent saw. */
export interface PathOutcome {
  readonly session: Session;
  readonly runStarts: readonly number[];
  readonly requests: readonly WalkRequest[];
  readonly executions: readonly ToolExecution[];
}

async function drain(events: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of events) {
    // Every event is read, so the run goes on; the journal is what is checked.
  }
}

/** The user's messages a journal already holds (each started a run). */
function inputsGiven(journal: readonly JournalEntry[]): number {
  return journal.filter((entry) => entry.type === 'user_message' && entry.author === undefined).length;
}

/**
 * Runs the `inputs` not yet in the session (those past the user's messages it holds), each a
 * `run()` of one new agent, after an optional first step (`resume`). Returns where each run began.
 */
async function runOn(
  scenario: RuntimeScenario,
  config: Config,
  session: Session,
  first: ((agent: Agent) => AsyncIterable<unknown>) | undefined,
  inputs: readonly string[] = scenario.inputs ?? ['go'],
): Promise<PathOutcome> {
  const executions: ToolExecution[] = [];
  const { agent, model } = scenarioAgent(scenario, config, session, executions);
  const runStarts: number[] = [];
  if (first !== undefined) {
    runStarts.push(session.journalLength);
    await drain(first(agent));
  }
  for (const input of inputs.slice(inputsGiven(session.journal))) {
    runStarts.push(session.journalLength);
    await drain(agent.run(input, { ...(scenario.output ? { output: scenario.output } : {}), ...retries(scenario) }));
  }
  return { session, runStarts, requests: model.requests, executions };
}

function retries(scenario: RuntimeScenario): { outputRetries?: number } {
  return scenario.outputRetries === undefined ? {} : { outputRetries: scenario.outputRetries };
}

/** A whole path: each of the scenario's inputs, run to its end, in a new session. */
export function runWhole(scenario: RuntimeScenario, config: Config): Promise<PathOutcome> {
  return runOn(scenario, config, new Session(config), undefined);
}

/**
 * A crash after `at` entries: the prefix is what a store held, `Session.load` reads it back, and
 * a new agent resumes (then runs the inputs left). Undefined when there is nothing to resume
 * (the prefix ends with an answer or holds no user message).
 */
export async function runResumed(
  scenario: RuntimeScenario,
  config: Config,
  journal: readonly JournalEntry[],
  at: number,
): Promise<PathOutcome | undefined> {
  const store = new MemoryStore();
  const written = Session.replay(journal.slice(0, at), config, { store, id: 'walk' });
  await written.durable();
  await written.close();
  const session = await Session.load(store, 'walk', { config });
  try {
    const resumable = session.pendingAnswer === undefined && inputsGiven(session.journal) > 0;
    if (!resumable) return undefined;
    return await runOn(scenario, config, session, (agent) => agent.resume(retries(scenario)));
  } catch (error) {
    if (error instanceof HarnessError && error.reason === 'nothing_to_resume') return undefined;
    throw error;
  } finally {
    await session.close();
  }
}

/** A fork after `at` entries (`Session.fork`), then a new message (`run('again')`) on it. */
export async function runForked(
  scenario: RuntimeScenario,
  config: Config,
  whole: Session,
  at: number,
): Promise<PathOutcome> {
  const fork = await whole.fork({ at });
  return runOn(scenario, config, fork, undefined, [...Array(inputsGiven(fork.journal)).fill(''), 'again']);
}
