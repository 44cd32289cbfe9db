import { ScriptedClient, type ScriptedTurn } from '../adapters/scripted-client.js';
import { Agent } from '../agent/agent.js';
import { Config, type ConfigOptions } from '../config/config.js';
import { type AgentEvent, isTerminal } from '../core/agent-event.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { EventBus, type Subscriber, type SubscriberErrorHandler } from '../events/event-bus.js';
import { Session } from '../session/session.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolLike } from '../tools/tool.js';
import { type Script, scriptedTurns } from './script.js';

/** Options of {@link runScript}. */
export interface RunScriptOptions {
  /** Tools to register, in order. */
  readonly tools?: readonly ToolLike[];
  /** Configuration of the run (workspace, budget, `toolTimeoutMs`, …). */
  readonly config?: ConfigOptions;
  /** The user message. Default `'go'`. */
  readonly input?: string;
  /** Call `agent.abort()` once this many events were received (counting `agent_start`). */
  readonly abortAfterEvents?: number;
  /** Subscribers to add to `agent.events` before the run, after the one that records `subscriberEvents`. */
  readonly subscribers?: readonly Subscriber[];
  /** Receives subscriber failures (by default they are logged to `console.error`). */
  readonly onSubscriberError?: SubscriberErrorHandler;
}

/** What a scripted run produced. */
export interface ScriptRun {
  /** Every event `run()` yielded, in order. */
  readonly events: readonly AgentEvent[];
  /** Every event a subscriber (`agent.events.subscribe`) received: contract §4 says they equal `events`. */
  readonly subscriberEvents: readonly AgentEvent[];
  /** The session's journal after the run. */
  readonly journal: readonly JournalEntry[];
  /** The session the run used (messages, usage, turn count). */
  readonly session: Session;
  /** The agent that ran. */
  readonly agent: Agent;
  /** The scripted model, with the requests it received. */
  readonly client: ScriptedClient;
  /** The configuration the run used. */
  readonly config: Config;
  /** What `run()` threw, if anything (it never should); `undefined` otherwise. */
  readonly thrown: unknown;
}

function isScript(turns: Script | readonly ScriptedTurn[]): turns is Script {
  return turns.every((turn) => typeof turn === 'object' && turn !== null && 'kind' in turn);
}

/**
 * Runs the real {@link Agent} once on a scripted model with the given tools, and returns the
 * events, the journal and whatever `run()` threw. Takes a {@link Script} or raw scripted turns.
 */
export async function runScript(
  turns: Script | readonly ScriptedTurn[],
  options: RunScriptOptions = {},
): Promise<ScriptRun> {
  const config = new Config(options.config ?? {});
  const registry = new ToolRegistry(config);
  for (const tool of options.tools ?? []) registry.register(tool);
  const client = new ScriptedClient(isScript(turns) ? scriptedTurns(turns) : turns);
  const session = new Session(config);
  const events$ = new EventBus(options.onSubscriberError ? { onSubscriberError: options.onSubscriberError } : {});
  const agent = new Agent(config, { client, tools: registry, session, events: events$ });
  const events: AgentEvent[] = [];
  const subscriberEvents: AgentEvent[] = [];
  agent.events.subscribe((event) => {
    subscriberEvents.push(event);
  });
  for (const subscriber of options.subscribers ?? []) agent.events.subscribe(subscriber);
  let thrown: unknown;
  try {
    for await (const event of agent.run(options.input ?? 'go')) {
      events.push(event);
      if (events.length === options.abortAfterEvents && !isTerminal(event)) agent.abort('aborted by the test');
    }
  } catch (error) {
    thrown = error ?? new Error('run() threw a nullish value');
  }
  return { events, subscriberEvents, journal: session.journal, session, agent, client, config, thrown };
}
