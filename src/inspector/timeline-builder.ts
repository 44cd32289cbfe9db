import { Budget } from '../config/budget.js';
import type { AgentEvent } from '../core/agent-event.js';
import { contentText, type MessageContent } from '../core/content-parts.js';
import type { CompactionEntry, DroppedReasoning, JournalEntry } from '../core/journal-entry.js';
import type { ReasoningContent, ToolCall } from '../core/messages.js';
import { addUsage, type TokenUsage, usageOfModel, ZERO_USAGE } from '../core/usage.js';
import { eventLabel } from '../diagram/edge-label.js';
import { timelineAttachments } from './timeline-attachments.js';
import type { TimelineDroppedReasoning, TimelineReasoning, TimelineStep, TimelineToolCall } from './timeline-step.js';
import type { ToolTiming } from './tool-timings.js';

/** Options of {@link TimelineBuilder}. */
export interface TimelineBuilderOptions {
  /** Rates for the cost column; the default budget's rates when absent. */
  readonly budget?: Budget;
  /** The machine's initial state, entered by the first `turn_start` of a run. */
  readonly initialState?: string;
  /** Tool durations from a timing sidecar, matched to calls by `callId` in order. */
  readonly timings?: readonly ToolTiming[];
  /**
   * The journals of child agents by session id (see `readSessionTree`): a call that ran a child
   * agent gets the child's timeline as its `children`, nested as deep as the journals go.
   */
  readonly childJournal?: (sessionId: string) => readonly JournalEntry[] | undefined;
}

type StepFields = Omit<TimelineStep, 'id' | 'index' | 'state' | 'turn' | 'usage' | 'cost' | 'entries'>;

const ERROR_PREFIX = 'Error: ';

function argumentsText(call: ToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** What a compaction replaced, and by what, for its timeline step. */
function compactionText(entry: CompactionEntry): string {
  const count = entry.to - entry.from;
  const what = `messages ${entry.from}–${entry.to - 1} (${count})`;
  if (entry.strategy === 'summarise') return `${what} replaced by a summary:\n${entry.messages[0]?.content ?? ''}`;
  const elided = entry.messages.filter(
    (message) => message.role === 'tool' && contentText(message.content).startsWith('[elided '),
  ).length;
  return `${elided} tool output(s) of ${what} elided`;
}

/** A turn's reasoning parts as the timeline shows them: summary, else text; redacted and encrypted ones named. */
function reasoningShown(parts: readonly ReasoningContent[]): TimelineReasoning[] {
  return parts.map((part): TimelineReasoning => {
    if (part.type === 'redacted_reasoning') return { provider: part.provider, shows: 'redacted', text: '' };
    if (part.summary !== undefined) return { provider: part.provider, shows: 'summary', text: part.summary };
    if (part.text !== undefined) return { provider: part.provider, shows: 'text', text: part.text };
    return { provider: part.provider, shows: 'encrypted', text: '' };
  });
}

/** A request's drop notes counted by provider, in order of first note. */
function droppedShown(notes: readonly DroppedReasoning[]): TimelineDroppedReasoning[] {
  const parts = new Map<string, number>();
  for (const { provider } of notes) parts.set(provider, (parts.get(provider) ?? 0) + 1);
  return [...parts].map(([provider, count]) => ({ provider, parts: count }));
}

/**
 * Folds a journal (and, live, the agent's stream events) into inspector timeline steps.
 * Every `add*` returns the steps it created or changed, for a live page to upsert.
 */
export class TimelineBuilder {
  private readonly list: TimelineStep[] = [];
  private readonly byId = new Map<string, TimelineStep>();
  private readonly budget: Budget;
  private readonly options: TimelineBuilderOptions;
  private readonly initialState: string;
  private readonly timings = new Map<string, number[]>();
  private state: string | null = null;
  /** Journal entries added so far. */
  private entryCount = 0;
  private turn = 0;
  private usage: TokenUsage = ZERO_USAGE;
  private pendingCalls: readonly ToolCall[] = [];
  private readonly toolStepOf = new Map<string, string>();
  private readonly startedAt = new Map<string, number>();
  /** Tool names of the calls asked for so far, by callId (for approval steps). */
  private readonly callNames = new Map<string, string>();
  /** Results recorded before their call's step exists (a resumed run's journal). */
  private readonly earlyResults = new Map<string, MessageContent>();
  /** Timelines of child agents followed live, by child session id (see {@link TimelineBuilder.childTimeline}). */
  private readonly liveChildren = new Map<string, TimelineBuilder>();
  /** The call that runs each child session, by child session id. */
  private readonly callOfChild = new Map<string, string>();

  constructor(options: TimelineBuilderOptions = {}) {
    this.options = options;
    this.budget = options.budget ?? new Budget();
    this.initialState = options.initialState ?? 'awaitingModel';
    for (const { callId, durationMs } of options.timings ?? []) {
      this.timings.set(callId, [...(this.timings.get(callId) ?? []), durationMs]);
    }
  }

  /** The steps so far, in timeline order. */
  get steps(): readonly TimelineStep[] {
    return this.list;
  }

  /** Adds one journal entry. */
  addEntry(entry: JournalEntry): TimelineStep[] {
    this.entryCount++;
    switch (entry.type) {
      case 'user_message': {
        const attachments = timelineAttachments(entry.content);
        const kind = entry.author === 'harness' ? 'harness_note' : 'user';
        const title = entry.author === 'harness' ? 'harness note' : 'user message';
        const text = contentText(entry.content);
        return this.push(attachments === undefined ? { kind, title, text } : { kind, title, text, attachments });
      }
      case 'turn_start':
        this.turn++;
        if (this.state === null || this.state === 'done' || this.state === 'error') this.state = this.initialState;
        return this.push(
          entry.droppedReasoning === undefined
            ? { kind: 'turn', title: `turn ${this.turn}` }
            : { kind: 'turn', title: `turn ${this.turn}`, droppedReasoning: droppedShown(entry.droppedReasoning) },
          `turn-${this.turn}`,
        );
      case 'usage':
        // A fallback chain's turn is priced at the rates of the model that answered it.
        return this.addUsage(entry.model === undefined ? entry.usage : usageOfModel(entry.usage, entry.model));
      case 'assistant_message':
        this.pendingCalls = entry.toolCalls ?? [];
        for (const call of this.pendingCalls) this.callNames.set(call.callId, call.name);
        return this.addText(
          'model_text',
          `model asked for ${this.pendingCalls.length} tool call(s)`,
          entry.content,
          entry.reasoning,
        );
      case 'transition':
        return this.addTransition(entry.from, entry.to, entry.event);
      case 'tool_started':
        return this.startTool(entry.callId, entry.source, entry.childSessionId);
      case 'model_switch':
        return this.push({
          kind: 'model_switch',
          title: `model switch (${entry.reason}): ${entry.from} → ${entry.to}`,
          text: entry.message,
        });
      case 'handoff':
        return this.push({ kind: 'handoff', title: `handoff: ${entry.from} → ${entry.to}`, text: entry.instructions });
      case 'approval_request':
        return this.push({
          kind: 'approval',
          title: `approval asked: ${this.callNames.get(entry.callId) ?? entry.callId}`,
          text: `call ${entry.callId} waits for a decision`,
        });
      case 'approval_decision': {
        const name = this.callNames.get(entry.callId) ?? entry.callId;
        return entry.approved
          ? this.push({ kind: 'approval', title: `approved: ${name}`, text: `call ${entry.callId}` })
          : this.push({ kind: 'approval', title: `denied: ${name}`, text: entry.reason ?? `call ${entry.callId}` });
      }
      case 'tool_result':
        if (this.pendingCalls.some((call) => call.callId === entry.callId)) {
          this.earlyResults.set(entry.callId, entry.content);
          return [];
        }
        return this.settleTool(entry.callId, entry.content);
      case 'agent_end':
        return this.addText('answer', 'final answer', entry.response, entry.reasoning);
      case 'agent_error':
        return this.push({ kind: 'error', title: `stopped: ${entry.reason}`, text: entry.message });
      case 'guardrail': {
        const on = entry.callId === undefined ? entry.stage : `${entry.stage} of ${entry.callId}`;
        const title = `guardrail ${entry.guardrail} (${on}): ${entry.outcome}`;
        return entry.reason === undefined
          ? this.push({ kind: 'guardrail', title })
          : this.push({ kind: 'guardrail', title, text: entry.reason });
      }
      case 'budget_warning': {
        const percent = Math.round(entry.used * 100);
        return this.push({ kind: 'budget_warning', title: `budget warning: ${entry.budget} ${percent}% used` });
      }
      case 'compaction':
        return this.push({
          kind: 'compaction',
          title: `context compacted (${entry.strategy}): ${entry.tokensBefore} → ${entry.tokensAfter} tokens`,
          text: compactionText(entry),
        });
      case 'reset':
        this.state = null;
        this.pendingCalls = [];
        return this.push({ kind: 'reset', title: 'session reset' });
    }
  }

  /** Adds a live stream event: streamed text and reasoning, tool starts and completions (with durations). */
  addEvent(event: AgentEvent, at: number): TimelineStep[] {
    switch (event.type) {
      case 'text_delta': {
        // Streamed text shows on the turn until the journal records the turn's message.
        const turnStep = this.byId.get(`turn-${this.turn}`);
        if (turnStep === undefined) return [];
        return [this.replace({ ...turnStep, text: (turnStep.text ?? '') + event.data.content })];
      }
      case 'reasoning_delta': {
        // As streamed text: on the turn until the journal records the turn's finished parts.
        const turnStep = this.byId.get(`turn-${this.turn}`);
        if (turnStep === undefined) return [];
        const streamedReasoning = (turnStep.streamedReasoning ?? '') + event.data.content;
        return [this.replace({ ...turnStep, streamedReasoning })];
      }
      case 'tool_call_start':
        this.startedAt.set(event.data.callId, at);
        // The journal's write-ahead `tool_started` usually marked it running already.
        if (this.toolOf(event.data.callId)?.status === 'running') return [];
        return this.updateTool(event.data.callId, { status: 'running' });
      case 'tool_call_complete': {
        const start = this.startedAt.get(event.data.callId);
        // The journal's `tool_result` (as the model sees it) wins over the event's text.
        const recorded = this.toolOf(event.data.callId)?.result;
        const result = recorded ?? (event.data.success ? event.data.output : event.data.error);
        return this.updateTool(event.data.callId, {
          status: event.data.success ? 'ok' : 'error',
          ...(result !== undefined ? { result } : {}),
          ...(start !== undefined ? { durationMs: at - start } : {}),
        });
      }
      default:
        return [];
    }
  }

  /**
   * The timeline of child session `sessionId`, to feed with the child's own log and events while
   * it runs (a live inspector following an agent's children): made on first use, and shown as
   * the `children` of the call that runs it. After feeding it, call {@link childChanged}.
   */
  childTimeline(sessionId: string): TimelineBuilder {
    let child = this.liveChildren.get(sessionId);
    if (child === undefined) {
      child = new TimelineBuilder({ ...this.options, timings: [] });
      this.liveChildren.set(sessionId, child);
    }
    return child;
  }

  /**
   * Shows what was added to child `sessionId`'s {@link childTimeline} on the call that runs it;
   * returns that call's step (none while the call's start is not in this timeline yet: the
   * start picks the child's timeline up).
   */
  childChanged(sessionId: string): TimelineStep[] {
    const callId = this.callOfChild.get(sessionId);
    const child = this.liveChildren.get(sessionId);
    if (callId === undefined || child === undefined) return [];
    return this.updateTool(callId, { childSessionId: sessionId, children: child.steps.slice() });
  }

  private addUsage(usage: TokenUsage): TimelineStep[] {
    this.usage = addUsage(this.usage, usage);
    const turnStep = this.byId.get(`turn-${this.turn}`);
    if (turnStep === undefined) return [];
    const title = `turn ${this.turn} · ${usage.promptTokens} in / ${usage.completionTokens} out`;
    return [this.replace({ ...turnStep, title, usage: this.usage, cost: this.budget.usageCost(this.usage) })];
  }

  private addTransition(from: string, to: string, event: string): TimelineStep[] {
    this.state = to;
    const changed = this.push({ kind: 'transition', title: `${from} → ${to}`, from, event: eventLabel(event) });
    if (to !== 'executingTools') return changed;
    for (const call of this.pendingCalls) {
      const tool: TimelineToolCall = {
        callId: call.callId,
        name: call.name,
        arguments: argumentsText(call),
        status: 'pending',
      };
      const id = `tool-${this.turn}-${call.callId}`;
      this.toolStepOf.set(call.callId, id);
      changed.push(...this.push({ kind: 'tool_call', title: call.name, tool }, id));
      const early = this.earlyResults.get(call.callId);
      this.earlyResults.delete(call.callId);
      if (early !== undefined) changed.push(...this.settleTool(call.callId, early));
    }
    this.pendingCalls = [];
    return changed;
  }

  private settleTool(callId: string, recorded: MessageContent): TimelineStep[] {
    const content = contentText(recorded);
    const attachments = timelineAttachments(recorded);
    const status = content.startsWith(ERROR_PREFIX) ? 'error' : 'ok';
    const known = this.byId.get(this.toolStepOf.get(callId) ?? '')?.tool;
    const durationMs = known?.durationMs ?? this.timings.get(callId)?.shift();
    // A child that ran live has more entries by now than when its call started.
    const child = known?.childSessionId === undefined ? {} : this.childOf(known.childSessionId);
    return this.updateTool(callId, {
      status: known?.status === 'ok' || known?.status === 'error' ? known.status : status,
      result: content,
      ...(attachments !== undefined ? { attachments } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...child,
    });
  }

  /** A call's write-ahead start: running, with its source and its child agent's timeline. */
  private startTool(callId: string, source: string | undefined, childSessionId: string | undefined): TimelineStep[] {
    if (childSessionId !== undefined) this.callOfChild.set(childSessionId, callId);
    return this.updateTool(callId, {
      status: 'running',
      ...(source !== undefined ? { source } : {}),
      ...(childSessionId !== undefined ? this.childOf(childSessionId) : {}),
    });
  }

  /** The child session's id and, when its journal is known (or it is followed live), its own timeline. */
  private childOf(childSessionId: string): Pick<TimelineToolCall, 'childSessionId' | 'children'> {
    const live = this.liveChildren.get(childSessionId);
    if (live !== undefined) return { childSessionId, children: live.steps.slice() };
    const journal = this.options.childJournal?.(childSessionId);
    if (journal === undefined) return { childSessionId };
    const child = new TimelineBuilder({ ...this.options, timings: [] });
    for (const entry of journal) child.addEntry(entry);
    return { childSessionId, children: child.steps };
  }

  private toolOf(callId: string): TimelineToolCall | undefined {
    return this.byId.get(this.toolStepOf.get(callId) ?? '')?.tool;
  }

  private updateTool(callId: string, change: Partial<TimelineToolCall>): TimelineStep[] {
    const step = this.byId.get(this.toolStepOf.get(callId) ?? '');
    if (step?.tool === undefined) return [];
    return [this.replace({ ...step, tool: { ...step.tool, ...change } })];
  }

  /** The turn's recorded text (and reasoning); replaces what was streamed onto the turn step (text and reasoning). */
  private addText(
    kind: 'model_text' | 'answer',
    title: string,
    text: string,
    reasoning: readonly ReasoningContent[] | undefined,
  ): TimelineStep[] {
    const changed: TimelineStep[] = [];
    const turnStep = this.byId.get(`turn-${this.turn}`);
    if (turnStep !== undefined && (turnStep.text !== undefined || turnStep.streamedReasoning !== undefined)) {
      const { text: _streamed, streamedReasoning: _streamedReasoning, ...rest } = turnStep;
      changed.push(this.replace(rest));
    }
    const fields: StepFields =
      reasoning === undefined ? { kind, title, text } : { kind, title, text, reasoning: reasoningShown(reasoning) };
    return [...changed, ...this.push(fields, `text-${this.turn}`)];
  }

  private push(fields: StepFields, id = `step-${this.list.length}`): TimelineStep[] {
    const usage = this.usage;
    const step: TimelineStep = {
      ...fields,
      id,
      index: this.list.length,
      state: this.state,
      turn: this.turn,
      usage,
      cost: this.budget.usageCost(usage),
      entries: this.entryCount,
    };
    this.list.push(step);
    this.byId.set(id, step);
    return [step];
  }

  private replace(step: TimelineStep): TimelineStep {
    this.list[step.index] = step;
    this.byId.set(step.id, step);
    return step;
  }
}
