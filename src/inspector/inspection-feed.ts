import { ZERO_USAGE } from '../core/usage.js';
import { graphFromDefinition } from '../diagram/definition-graph.js';
import { eventLabel } from '../diagram/edge-label.js';
import type { MachineGraph } from '../diagram/machine-graph.js';
import type { InspectorSnapshot, StepListener } from './inspector-feed.js';
import type { TimelineStep } from './timeline-step.js';

/** The graph shown until an XState app connects. */
const NO_MACHINE: MachineGraph = { id: 'none', initial: '', states: [], edges: [], actors: [], guards: [] };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The top-level state of a snapshot value (`'a'`, or `{a: …}` for a nested one). */
function stateName(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isObject(value)) return Object.keys(value)[0] ?? null;
  return null;
}

function parseDefinition(definition: unknown): MachineGraph | undefined {
  if (typeof definition !== 'string') return undefined;
  try {
    return graphFromDefinition(JSON.parse(definition));
  } catch {
    return undefined;
  }
}

/**
 * A timeline fed by the `@statelyai/inspect` WebSocket protocol (`@xstate.actor`,
 * `@xstate.event`, `@xstate.snapshot` messages), so any XState app can be inspected: it follows
 * the latest root actor, draws its machine from the definition it sends, and lists its events,
 * state changes and child actors.
 */
export class InspectionFeed {
  private currentTitle = 'waiting for an XState app';
  private currentGraph: MachineGraph = NO_MACHINE;
  private steps: TimelineStep[] = [];
  private root: string | undefined;
  private state: string | null = null;
  private readonly listeners = new Set<StepListener>();
  private readonly snapshotListeners = new Set<(snapshot: InspectorSnapshot) => void>();

  /** The followed actor's name (its machine id). */
  get title(): string {
    return this.currentTitle;
  }

  /** The followed actor's machine, read from the definition it sent (empty before one connects). */
  get graph(): MachineGraph {
    return this.currentGraph;
  }

  /** The graph and every step so far. */
  snapshot(): InspectorSnapshot {
    return { title: this.currentTitle, live: true, graph: this.currentGraph, steps: this.steps.slice() };
  }

  /** Calls `listener` with each new step; returns the function that stops it. */
  subscribe(listener: StepListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with a whole new snapshot when a new root actor starts. */
  subscribeSnapshots(listener: (snapshot: InspectorSnapshot) => void): () => void {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener);
  }

  /** Takes one inspection message (parsed JSON); anything else is ignored. */
  receive(message: unknown): void {
    if (!isObject(message) || typeof message.sessionId !== 'string') return;
    if (message.type === '@xstate.actor') this.onActor(message, message.sessionId);
    else if (message.sessionId !== this.root) return;
    else if (message.type === '@xstate.event') this.onEvent(message);
    else if (message.type === '@xstate.snapshot') this.onSnapshot(message);
  }

  private onActor(message: Json, sessionId: string): void {
    const name = typeof message.name === 'string' ? message.name : sessionId;
    if (message.parentId === undefined || message.parentId === null) {
      this.root = sessionId;
      this.currentGraph = parseDefinition(message.definition) ?? { ...NO_MACHINE, id: name };
      this.currentTitle = name;
      this.steps = [];
      // The machine's initial state: the snapshot in this message may be read later than the
      // actor's creation (the inspector serialises lazily), so it can be ahead of the events.
      const value = isObject(message.snapshot) ? message.snapshot.value : undefined;
      this.state = this.currentGraph.initial || stateName(value);
      this.push({ kind: 'actor', title: `actor started: ${name}` }, false);
      const snapshot = this.snapshot();
      for (const listener of this.snapshotListeners) listener(snapshot);
    } else if (message.parentId === this.root) {
      this.push({ kind: 'actor', title: `child actor: ${name}` });
    }
  }

  private onEvent(message: Json): void {
    const event = isObject(message.event) ? message.event : {};
    const type = typeof event.type === 'string' ? event.type : 'event';
    const { type: _type, ...rest } = event;
    const text = Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 2) : undefined;
    this.push({ kind: 'event', title: `event ${eventLabel(type)}`, ...(text !== undefined ? { text } : {}) });
  }

  private onSnapshot(message: Json): void {
    const snapshot = isObject(message.snapshot) ? message.snapshot : {};
    const next = stateName(snapshot.value);
    if (next === null || next === this.state) return;
    const from = this.state ?? '';
    const event = isObject(message.event) && typeof message.event.type === 'string' ? message.event.type : '';
    this.state = next;
    this.push({ kind: 'transition', title: `${from} → ${next}`, from, event: eventLabel(event) });
  }

  private push(fields: Pick<TimelineStep, 'kind' | 'title'> & Partial<TimelineStep>, notify = true): void {
    const index = this.steps.length;
    const step: TimelineStep = {
      ...fields,
      id: `step-${index}`,
      index,
      state: this.state,
      turn: 0,
      usage: ZERO_USAGE,
      cost: 0,
    };
    this.steps.push(step);
    if (notify) for (const listener of this.listeners) listener([step]);
  }
}
