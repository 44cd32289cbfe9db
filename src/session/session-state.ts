import type { ApprovalDecision, PolicyDecisionRecord } from '../core/approval-types.js';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import type { ApprovalDecisionEntry, CompactionEntry, JournalEntry } from '../core/journal-entry.js';
import type { JsonObject, Message, ReasoningContent, ToolCall } from '../core/messages.js';
import { stableJson } from '../core/stable-json.js';
import { addUsage, type TokenUsage, usageOfModel, ZERO_USAGE } from '../core/usage.js';

/** What a session knows, as a fold over its journal. Mutated in place for speed. */
export interface SessionState {
  messages: Message[];
  turnCount: number;
  totalUsage: TokenUsage;
  /** The last final answer, until the next message carries it into `messages`. */
  pendingAnswer: string | undefined;
  /** The reasoning of the pending answer's turn, joining its message with it. */
  pendingReasoning: readonly ReasoningContent[] | undefined;
  /** Whether any turn so far carried reasoning (a request then filters it by provider). */
  reasoned: boolean;
  /** The tool calls of the last assistant turn, while the context has not moved past it. */
  openCalls: readonly ToolCall[] | undefined;
  /** Index in `openCalls` of the next call whose result joins `messages`. */
  nextResult: number;
  /** Results journaled ahead of an earlier call's, held until that one is in (by callId). */
  heldResults: Map<string, MessageContent> | undefined;
  /** Calls of the open turn whose start was journaled (a `tool_started` entry), with the child session each ran, if any. */
  startedCalls: Map<string, string | undefined> | undefined;
  /** Decisions journaled for calls of the open turn that asked for approval, by callId. */
  decisions: Map<string, ApprovalDecision> | undefined;
  /** Every decision journaled in this session (since its last reset), oldest first: what policy functions see. */
  decisionHistory: PolicyDecisionRecord[];
  /** The agent the conversation was last handed to (a `handoff` entry); undefined for the session's own. */
  activeAgent: string | undefined;
}

/** The state of a session with an empty journal. */
export function initialState(systemPrompt: string | undefined): SessionState {
  return {
    messages: systemPrompt === undefined ? [] : [Object.freeze({ role: 'system', content: systemPrompt })],
    turnCount: 0,
    totalUsage: ZERO_USAGE,
    pendingAnswer: undefined,
    pendingReasoning: undefined,
    reasoned: false,
    openCalls: undefined,
    nextResult: 0,
    heldResults: undefined,
    startedCalls: undefined,
    decisions: undefined,
    decisionHistory: [],
    activeAgent: undefined,
  };
}

/** A handoff: the new agent's instructions replace the system message (or lead the context). */
function handOff(state: SessionState, to: string, instructions: string): void {
  state.activeAgent = to;
  const system = Object.freeze({ role: 'system' as const, content: instructions });
  if (state.messages[0]?.role === 'system') state.messages[0] = system;
  else state.messages.unshift(system);
}

function push(state: SessionState, message: Message): void {
  if (state.pendingAnswer !== undefined) {
    const reasoning = state.pendingReasoning;
    state.messages.push(
      Object.freeze(
        reasoning === undefined
          ? { role: 'assistant', content: state.pendingAnswer }
          : { role: 'assistant', content: state.pendingAnswer, reasoning },
      ),
    );
    state.pendingAnswer = undefined;
    state.pendingReasoning = undefined;
  }
  state.messages.push(Object.freeze(message));
}

function pushResult(state: SessionState, callId: string, content: MessageContent): void {
  push(state, { role: 'tool', callId, content });
}

/** Moves the open turn's held results that are now due into `messages`, in call order. */
function releaseDue(state: SessionState): void {
  const calls = state.openCalls as readonly ToolCall[];
  const held = state.heldResults;
  while (held !== undefined && state.nextResult < calls.length) {
    const callId = (calls[state.nextResult] as ToolCall).callId;
    const content = held.get(callId);
    if (content === undefined) return;
    held.delete(callId);
    pushResult(state, callId, content);
    state.nextResult++;
  }
}

/**
 * The context moves past the open turn (a new message, a reset): results still held (an
 * earlier call of their turn never got one) join `messages` in call order, so none is lost.
 */
function closeTurn(state: SessionState): void {
  const calls = state.openCalls;
  const held = state.heldResults;
  if (calls !== undefined && held !== undefined && held.size > 0) {
    for (const call of calls) {
      const content = held.get(call.callId);
      if (content !== undefined) pushResult(state, call.callId, content);
    }
  }
  state.openCalls = undefined;
  state.nextResult = 0;
  // Emptied, not dropped: a map per turn was an allocation on every turn (these are the open
  // turn's own, never shared).
  state.heldResults?.clear();
  state.startedCalls?.clear();
  state.decisions?.clear();
}

/**
 * A tool result joins the context in the order the model asked for the calls, whatever order
 * the journal recorded them in (each result is journaled as its call settles).
 */
function addResult(state: SessionState, callId: string, content: MessageContent): void {
  const calls = state.openCalls;
  if (calls !== undefined) {
    if (calls[state.nextResult]?.callId === callId) {
      pushResult(state, callId, content);
      state.nextResult++;
      releaseDue(state);
      return;
    }
    const index = calls.findIndex((call) => call.callId === callId);
    if (index > state.nextResult) {
      state.heldResults ??= new Map();
      state.heldResults.set(callId, content);
      return;
    }
  }
  // Not a call of the open turn: appended where it stands (the journal check flags it).
  pushResult(state, callId, content);
}

/** Why a compaction cannot apply to `messages`, or undefined when it keeps every call paired with its result. */
function compactionProblem(messages: readonly Message[], entry: CompactionEntry): string | undefined {
  const { from, to } = entry;
  if (to > messages.length) return `the context holds ${messages.length}`;
  // The newest turn is never compacted: its calls may still be owed results.
  let lastAssistant = messages.length - 1;
  while (lastAssistant >= 0 && (messages[lastAssistant] as Message).role !== 'assistant') lastAssistant--;
  if (to > lastAssistant) return 'the newest turn is never compacted';
  if (entry.strategy === 'elide') {
    // The same messages, in place: only tool outputs may change, each still answering its call.
    if (entry.messages.length !== to - from) return `an elision keeps its ${to - from} messages`;
    for (let i = 0; i < entry.messages.length; i++) {
      const was = messages[from + i] as Message;
      const by = entry.messages[i] as Message;
      const same =
        was.role === 'tool' && by.role === 'tool' ? was.callId === by.callId : stableJson(was) === stableJson(by);
      if (!same) return `message ${from + i} may only have its tool output elided`;
    }
    return undefined;
  }
  // A summary: one assistant message without calls, in place of whole turns (no call split from its result).
  const [by, ...more] = entry.messages;
  if (by === undefined || more.length > 0 || by.role !== 'assistant' || by.toolCalls !== undefined) {
    return 'a summary is one assistant message without tool calls';
  }
  if (messages[from]?.role === 'tool' || messages[to]?.role === 'tool') {
    return 'a summary replaces whole turns, never a call without its result';
  }
  return undefined;
}

/**
 * Replaces `messages[from, to)` with the compaction's messages. The open turn's bookkeeping is
 * by callId, not by index, so it is untouched (compaction never reaches the open turn). A
 * compaction that would break the pairing of calls and results, or reach the newest turn, is
 * refused with `journal_corrupt` (a hostile or damaged journal), before anything changes.
 */
function compact(state: SessionState, entry: CompactionEntry): void {
  const problem = compactionProblem(state.messages, entry);
  if (problem !== undefined) {
    throw new HarnessError(
      'journal_corrupt',
      `a compaction replaces messages ${entry.from} to ${entry.to}, but ${problem}`,
    );
  }
  state.messages.splice(entry.from, entry.to - entry.from, ...entry.messages.map((message) => Object.freeze(message)));
}

/**
 * A decision on a call of the open turn. An approval with edited arguments replaces the call's
 * arguments in the assistant message: the model sees, in later requests, the call that ran.
 */
function decide(state: SessionState, entry: ApprovalDecisionEntry): void {
  const decision: ApprovalDecision = entry.approved
    ? {
        approved: true,
        ...(entry.rule === undefined ? {} : { rule: entry.rule }),
        ...(entry.arguments === undefined ? {} : { arguments: entry.arguments }),
      }
    : { approved: false, reason: entry.reason ?? 'denied', ...(entry.rule === undefined ? {} : { rule: entry.rule }) };
  state.decisions ??= new Map();
  state.decisions.set(entry.callId, decision);
  const calls = state.openCalls;
  const call = calls?.find((open) => open.callId === entry.callId);
  state.decisionHistory.push({
    callId: entry.callId,
    name: call?.name ?? '',
    approved: entry.approved,
    ...(entry.rule === undefined ? {} : { rule: entry.rule }),
  });
  if (entry.arguments === undefined || calls === undefined || call === undefined) return;
  const edited = calls.map((open) => (open === call ? { ...open, arguments: entry.arguments as JsonObject } : open));
  state.openCalls = edited;
  for (let index = state.messages.length - 1; index >= 0; index--) {
    const message = state.messages[index];
    if (message?.role === 'assistant' && message.toolCalls === calls) {
      state.messages[index] = Object.freeze({ ...message, toolCalls: edited });
      return;
    }
  }
}

/** Applies one journal entry to the state: the single place where session state changes. */
export function applyEntry(state: SessionState, entry: JournalEntry, systemPrompt: string | undefined): void {
  switch (entry.type) {
    case 'turn_start':
      state.turnCount += 1;
      return;
    case 'user_message':
      closeTurn(state);
      push(
        state,
        entry.author
          ? { role: 'user', content: entry.content, author: entry.author }
          : { role: 'user', content: entry.content },
      );
      return;
    case 'assistant_message':
      closeTurn(state);
      if (entry.reasoning !== undefined) state.reasoned = true;
      if (entry.toolCalls && entry.toolCalls.length > 0) {
        push(
          state,
          entry.reasoning === undefined
            ? { role: 'assistant', content: entry.content, toolCalls: entry.toolCalls }
            : { role: 'assistant', content: entry.content, toolCalls: entry.toolCalls, reasoning: entry.reasoning },
        );
        state.openCalls = entry.toolCalls;
      } else {
        push(
          state,
          entry.reasoning === undefined
            ? { role: 'assistant', content: entry.content }
            : { role: 'assistant', content: entry.content, reasoning: entry.reasoning },
        );
      }
      return;
    case 'tool_started':
      state.startedCalls ??= new Map();
      state.startedCalls.set(entry.callId, entry.childSessionId);
      return;
    case 'approval_decision':
      decide(state, entry);
      return;
    case 'tool_result':
      addResult(state, entry.callId, entry.content);
      // A child agent's usage counts with the result that carries it.
      if (entry.usage !== undefined) state.totalUsage = addUsage(state.totalUsage, entry.usage);
      return;
    case 'handoff':
      handOff(state, entry.to, entry.instructions);
      return;
    case 'usage':
      state.totalUsage = addUsage(
        state.totalUsage,
        entry.model === undefined ? entry.usage : usageOfModel(entry.usage, entry.model),
      );
      return;
    case 'reset':
      Object.assign(state, initialState(systemPrompt));
      return;
    case 'agent_end':
      closeTurn(state);
      state.pendingAnswer = entry.response;
      state.pendingReasoning = entry.reasoning;
      if (entry.reasoning !== undefined) state.reasoned = true;
      return;
    case 'compaction':
      compact(state, entry);
      return;
    case 'transition':
    case 'model_switch':
    case 'approval_request':
    case 'agent_error':
    case 'budget_warning':
    // A verdict changes nothing: a replacement is in the entry it replaced in, a tripwire in `agent_error`.
    case 'guardrail':
      return;
  }
}
