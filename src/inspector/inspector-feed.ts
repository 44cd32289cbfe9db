import type { Agent } from '../agent/agent.js';
import type { Budget } from '../config/budget.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { type MachineGraph, machineGraph } from '../diagram/machine-graph.js';
import { agentMachine } from '../machines/agent-machine.js';
import type { DivergenceView } from './divergence-view.js';
import { followAgent } from './follow-agent.js';
import { TimelineBuilder } from './timeline-builder.js';
import type { TimelineStep } from './timeline-step.js';
import type { ToolTiming } from './tool-timings.js';

/** Everything the page needs at once: the diagram's graph and the timeline so far. */
export interface InspectorSnapshot {
  /** Shown as the page title (e.g. the journal's file name). */
  readonly title: string;
  /** True while steps may still arrive. */
  readonly live: boolean;
  readonly graph: MachineGraph;
  readonly steps: readonly TimelineStep[];
  /** A replay's divergence: the recorded and new timelines side by side (`divergenceSource`). */
  readonly divergence?: DivergenceView;
}

/** Receives the steps each change created or updated. */
export type StepListener = (steps: readonly TimelineStep[]) => void;

/** Options of {@link InspectorFeed}. */
export interface InspectorFeedOptions {
  readonly title: string;
  readonly live: boolean;
  /** Rates for the cost shown; the default budget's when absent. */
  readonly budget?: Budget;
  /** Tool durations of a saved run (see `readTimingFile`). */
  readonly timings?: readonly ToolTiming[];
  /** The graph to draw; the agent machine's by default. */
  readonly graph?: MachineGraph;
  /** Journals of child agents by session id (`readSessionTree`), shown nested under their calls. */
  readonly childJournal?: (sessionId: string) => readonly JournalEntry[] | undefined;
}

/**
 * The inspector's data: a timeline folded from a journal (saved) or from an agent as it runs
 * (live), with listeners told of every change.
 */
export class InspectorFeed {
  /** Shown as the page title. */
  readonly title: string;
  /** The machine drawn on the page. */
  readonly graph: MachineGraph;
  private readonly live: boolean;
  private readonly builder: TimelineBuilder;
  private readonly listeners = new Set<StepListener>();

  constructor(options: InspectorFeedOptions) {
    this.title = options.title;
    this.live = options.live;
    this.graph = options.graph ?? machineGraph(agentMachine);
    this.builder = new TimelineBuilder({
      initialState: this.graph.initial,
      ...(options.budget ? { budget: options.budget } : {}),
      ...(options.timings ? { timings: options.timings } : {}),
      ...(options.childJournal ? { childJournal: options.childJournal } : {}),
    });
  }

  /** A feed for a saved journal. */
  static fromJournal(journal: readonly JournalEntry[], options: Omit<InspectorFeedOptions, 'live'>): InspectorFeed {
    const feed = new InspectorFeed({ ...options, live: false });
    for (const entry of journal) feed.builder.addEntry(entry);
    return feed;
  }

  /**
   * A live feed of an agent: its session's log from the start and then live (no gap, no
   * duplicate), plus the lifecycle events of its stream, and the same for each child agent its
   * calls start (`agentTool`), nested under the call as deep as agents nest (children that do
   * not run, ended before a resume, from the journals the session keeps). The graph draws
   * the machines of the agent tools in its registry. Returns the feed and a function that
   * detaches it.
   */
  static ofAgent(agent: Agent, title = 'live run'): { feed: InspectorFeed; detach: () => void } {
    const graph = machineGraph(agentMachine, {
      registry: agent.tools,
      depth: agent.depth,
      maxAgentDepth: agent.config.maxAgentDepth,
    });
    // Children that are not run (again) show from the journals their parent session keeps
    // without a store: a resumed parent's children that had ended.
    const { session } = agent;
    const childJournal = (id: string) => session.children.journals().get(id);
    const feed = new InspectorFeed({ title, live: true, budget: agent.config.budget, graph, childJournal });
    // Streamed text is sent in one update per burst (the next macrotask), not one per delta;
    // everything else is sent as it happens, with any text still waiting before it.
    let deferred: ReturnType<typeof setImmediate> | undefined;
    let pending: TimelineStep[] = [];
    const flush = (): void => {
      if (deferred !== undefined) clearImmediate(deferred);
      deferred = undefined;
      const steps = pending;
      pending = [];
      feed.notify(steps);
    };
    const following = followAgent(agent, feed.builder, (steps, streamed) => {
      pending.push(...steps);
      if (!streamed) flush();
      else deferred ??= setImmediate(flush);
    });
    const detach = (): void => {
      following.unsubscribe();
      if (deferred !== undefined) clearImmediate(deferred);
    };
    return { feed, detach };
  }

  /** The graph and every step so far. */
  snapshot(): InspectorSnapshot {
    return { title: this.title, live: this.live, graph: this.graph, steps: this.builder.steps.slice() };
  }

  /** Calls `listener` with every later change; returns the function that stops it. */
  subscribe(listener: StepListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(steps: readonly TimelineStep[]): void {
    if (steps.length === 0) return;
    // Deduplicate: keep the last version of each step changed in this batch.
    const latest = [...new Map(steps.map((step) => [step.id, step])).values()];
    for (const listener of this.listeners) listener(latest);
  }
}
