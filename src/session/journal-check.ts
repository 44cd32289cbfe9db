import { COMPACTION_STRATEGIES } from '../config/context-options.js';
import { STOP_REASONS } from '../core/agent-event.js';
import type { BoundedTokenScale } from '../core/compaction.js';
import { checkContent } from '../core/content-check.js';
import type { MessageContent } from '../core/content-parts.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { GUARDRAIL_STAGES, type GuardrailOutcome, type GuardrailStage } from '../core/guardrail.js';
import type {
  AgentEndEntry,
  ApprovalDecisionEntry,
  AssistantMessageEntry,
  DroppedReasoning,
  GuardrailEntry,
  JournalEntry,
} from '../core/journal-entry.js';
import type { JsonObject, JsonValue, Message, ReasoningContent, ToolCall } from '../core/messages.js';
import { reasoningPart } from '../core/reasoning.js';
import { isTokenCount, type TokenUsage } from '../core/usage.js';

type Fields = Record<string, unknown>;

const KNOWN_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS);

function fail(index: number, problem: string): never {
  throw new HarnessError('invalid_journal', `journal entry ${index}: ${problem}`);
}

function text(entry: Fields, key: string, index: number): string {
  const value = entry[key];
  if (typeof value !== 'string') fail(index, `'${key}' must be a string, got ${typeof value}`);
  return value;
}

/** A user message's or tool result's content: a string, or valid content parts (journal version 6). */
function contentOf(entry: Fields, index: number): MessageContent {
  if (typeof entry.content === 'string') return entry.content;
  try {
    return checkContent(entry.content, "'content'", Number.POSITIVE_INFINITY);
  } catch (error) {
    return fail(index, errorMessage(error));
  }
}

function count(value: unknown, key: string, index: number): number {
  if (!isTokenCount(value)) {
    fail(index, `'${key}' must be a non-negative integer`);
  }
  return value;
}

function usageOf(value: unknown, index: number): TokenUsage {
  if (typeof value !== 'object' || value === null) fail(index, `'usage' must be an object`);
  const u = value as Fields;
  const usage: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    promptTokens: count(u.promptTokens, 'usage.promptTokens', index),
    completionTokens: count(u.completionTokens, 'usage.completionTokens', index),
    totalTokens: count(u.totalTokens, 'usage.totalTokens', index),
  };
  // The detail counts of journal version 5, when the provider reported them.
  for (const key of ['cachedPromptTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (u[key] !== undefined) usage[key] = count(u[key], `usage.${key}`, index);
  }
  return usage;
}

/** The `reasoning` of an entry: a non-empty array of reasoning parts (journal version 5). */
export function reasoningOf(value: unknown, index: number): readonly ReasoningContent[] {
  if (!Array.isArray(value) || value.length === 0)
    fail(index, `'reasoning' must be a non-empty array of reasoning parts`);
  return Object.freeze(
    value.map((raw: unknown, i) => {
      const part = reasoningPart(raw);
      if (typeof part === 'string') fail(index, `reasoning[${i}]: ${part}`);
      return part;
    }),
  );
}

/**
 * A request's notes of the reasoning parts it left out (journal version 5), checked and frozen:
 * a non-empty array of `{provider, message, part, reason: 'other_provider', client?}`; or, when
 * `value` is not one, what is wrong with it.
 */
export function droppedReasoningOf(value: unknown): readonly DroppedReasoning[] | string {
  if (!Array.isArray(value) || value.length === 0) return `'droppedReasoning' must be a non-empty array`;
  const notes: DroppedReasoning[] = [];
  for (const [i, raw] of value.entries()) {
    const note = (typeof raw === 'object' && raw !== null ? raw : {}) as Fields;
    const { provider, message, part, reason, client } = note;
    if (typeof provider !== 'string' || provider === '')
      return `droppedReasoning[${i}].provider must be a non-empty string`;
    if (!isTokenCount(message) || !isTokenCount(part))
      return `droppedReasoning[${i}].message and .part must be non-negative integers`;
    if (reason !== 'other_provider') return `droppedReasoning[${i}].reason must be 'other_provider'`;
    if (client !== undefined && typeof client !== 'string') return `droppedReasoning[${i}].client must be a string`;
    notes.push(
      Object.freeze(
        client === undefined ? { provider, message, part, reason } : { provider, message, part, reason, client },
      ),
    );
  }
  return Object.freeze(notes);
}

function toolCallsOf(value: unknown, index: number): ToolCall[] {
  if (!Array.isArray(value)) fail(index, `'toolCalls' must be an array`);
  return value.map((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null) fail(index, `toolCalls[${i}] must be an object`);
    const call = raw as Fields;
    const args = call.arguments;
    if (typeof args !== 'string' && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      fail(index, `toolCalls[${i}].arguments must be an object or a string`);
    }
    return {
      callId: text(call, 'callId', index),
      name: text(call, 'name', index),
      arguments: args as ToolCall['arguments'],
    };
  });
}

/** An `approval_decision` entry; `rule` and an approval's edited `arguments` came in journal version 6. */
function approvalDecisionOf(entry: Fields, index: number): ApprovalDecisionEntry {
  const callId = text(entry, 'callId', index);
  if (typeof entry.approved !== 'boolean') fail(index, `'approved' must be a boolean`);
  const rule = entry.rule === undefined ? {} : { rule: text(entry, 'rule', index) };
  if (!entry.approved && entry.reason !== undefined)
    return { type: 'approval_decision', callId, approved: false, reason: text(entry, 'reason', index), ...rule };
  const args = entry.arguments;
  if (args === undefined || !entry.approved)
    return { type: 'approval_decision', callId, approved: entry.approved, ...rule };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) fail(index, `'arguments' must be an object`);
  return {
    type: 'approval_decision',
    callId,
    approved: true,
    ...rule,
    arguments: jsonValue(args, index) as JsonObject,
  };
}

/** A structured answer as journaled: JSON (a copy, so the entry owns it). */
function jsonValue(value: unknown, index: number): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) fail(index, `'output' must be JSON`);
  return JSON.parse(text) as JsonValue;
}

function messagesOf(value: unknown, index: number): Message[] {
  if (!Array.isArray(value)) fail(index, `'messages' must be an array`);
  return value.map((raw: unknown, i): Message => {
    if (typeof raw !== 'object' || raw === null) fail(index, `messages[${i}] must be an object`);
    const message = raw as Fields;
    switch (message.role) {
      case 'system':
        return { role: 'system', content: text(message, 'content', index) };
      case 'user': {
        const content = contentOf(message, index);
        return message.author === 'harness' ? { role: 'user', content, author: 'harness' } : { role: 'user', content };
      }
      case 'assistant': {
        const content = text(message, 'content', index);
        const assistant: Message =
          message.toolCalls === undefined
            ? { role: 'assistant', content }
            : { role: 'assistant', content, toolCalls: toolCallsOf(message.toolCalls, index) };
        // An elided turn keeps its reasoning: a compaction never separates a part from its turn.
        return message.reasoning === undefined
          ? assistant
          : { ...assistant, reasoning: reasoningOf(message.reasoning, index) };
      }
      case 'tool':
        return { role: 'tool', callId: text(message, 'callId', index), content: contentOf(message, index) };
      default:
        return fail(index, `messages[${i}].role must be system, user, assistant or tool`);
    }
  });
}

function compactionOf(entry: Fields, index: number): JournalEntry {
  const strategy = entry.strategy;
  if (!COMPACTION_STRATEGIES.includes(strategy as never)) {
    fail(index, `'strategy' must be one of ${COMPACTION_STRATEGIES.join(', ')}`);
  }
  const from = count(entry.from, 'from', index);
  const to = count(entry.to, 'to', index);
  if (to < from) fail(index, `'to' (${to}) is before 'from' (${from})`);
  const checked = {
    type: 'compaction' as const,
    strategy: strategy as (typeof COMPACTION_STRATEGIES)[number],
    from,
    to,
    messages: messagesOf(entry.messages, index),
    tokensBefore: count(entry.tokensBefore, 'tokensBefore', index),
    tokensAfter: count(entry.tokensAfter, 'tokensAfter', index),
  };
  return entry.tokenScale === undefined ? checked : { ...checked, tokenScale: boundedScaleOf(entry.tokenScale, index) };
}

/** A compaction's note that its size was scaled by a bound: `{reported, used}`, both non-negative numbers. */
function boundedScaleOf(value: unknown, index: number): BoundedTokenScale {
  const { reported, used } = (typeof value === 'object' && value !== null ? value : {}) as Fields;
  const ratio = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!ratio(reported) || !ratio(used)) {
    fail(index, `'tokenScale' must be {reported, used}, two non-negative numbers`);
  }
  return { reported, used };
}

/** A guardrail verdict: its guardrail, a known stage and outcome, and an optional reason and call. */
function guardrailOf(entry: Fields, index: number): GuardrailEntry {
  const stage = text(entry, 'stage', index);
  if (!(GUARDRAIL_STAGES as readonly string[]).includes(stage)) fail(index, `unknown guardrail stage '${stage}'`);
  const outcome = text(entry, 'outcome', index);
  if (!GUARDRAIL_OUTCOMES.includes(outcome)) fail(index, `unknown guardrail outcome '${outcome}'`);
  return {
    type: 'guardrail',
    guardrail: text(entry, 'guardrail', index),
    stage: stage as GuardrailStage,
    outcome: outcome as GuardrailOutcome,
    ...(entry.reason === undefined ? {} : { reason: text(entry, 'reason', index) }),
    ...(entry.callId === undefined ? {} : { callId: text(entry, 'callId', index) }),
  };
}

const GUARDRAIL_OUTCOMES: readonly string[] = ['pass', 'replace', 'tripwire', 'error'];

/**
 * Checks one journal entry read from outside and returns a clean copy of it.
 * Throws a {@link HarnessError} (`invalid_journal`) naming the entry and the field.
 */
export function checkEntry(raw: unknown, index: number): JournalEntry {
  if (typeof raw !== 'object' || raw === null) fail(index, 'must be an object');
  const entry = raw as Fields;
  switch (entry.type) {
    case 'turn_start': {
      if (entry.droppedReasoning === undefined) return { type: 'turn_start' };
      const dropped = droppedReasoningOf(entry.droppedReasoning);
      if (typeof dropped === 'string') fail(index, dropped);
      return { type: 'turn_start', droppedReasoning: dropped };
    }
    case 'reset':
      return { type: entry.type };
    case 'user_message':
      return entry.author === 'harness'
        ? { type: 'user_message', content: text(entry, 'content', index), author: 'harness' }
        : { type: 'user_message', content: contentOf(entry, index) };
    case 'assistant_message': {
      const content = text(entry, 'content', index);
      const message: AssistantMessageEntry =
        entry.toolCalls === undefined
          ? { type: 'assistant_message', content }
          : { type: 'assistant_message', content, toolCalls: toolCallsOf(entry.toolCalls, index) };
      return entry.reasoning === undefined ? message : { ...message, reasoning: reasoningOf(entry.reasoning, index) };
    }
    case 'tool_started': {
      const callId = text(entry, 'callId', index);
      return {
        type: 'tool_started',
        callId,
        ...(entry.source === undefined ? {} : { source: text(entry, 'source', index) }),
        ...(entry.childSessionId === undefined ? {} : { childSessionId: text(entry, 'childSessionId', index) }),
      };
    }
    case 'approval_request': {
      const callId = text(entry, 'callId', index);
      return entry.rule === undefined
        ? { type: 'approval_request', callId }
        : { type: 'approval_request', callId, rule: text(entry, 'rule', index) };
    }
    case 'approval_decision':
      return approvalDecisionOf(entry, index);
    case 'tool_result': {
      const callId = text(entry, 'callId', index);
      const content = contentOf(entry, index);
      return entry.usage === undefined
        ? { type: 'tool_result', callId, content }
        : { type: 'tool_result', callId, content, usage: usageOf(entry.usage, index) };
    }
    case 'handoff':
      return {
        type: 'handoff',
        from: text(entry, 'from', index),
        to: text(entry, 'to', index),
        instructions: text(entry, 'instructions', index),
      };
    case 'usage':
      return entry.model === undefined
        ? { type: 'usage', usage: usageOf(entry.usage, index) }
        : { type: 'usage', usage: usageOf(entry.usage, index), model: text(entry, 'model', index) };
    case 'model_switch':
      return {
        type: 'model_switch',
        from: text(entry, 'from', index),
        to: text(entry, 'to', index),
        reason: text(entry, 'reason', index),
        message: text(entry, 'message', index),
      };
    case 'transition':
      return {
        type: 'transition',
        from: text(entry, 'from', index),
        to: text(entry, 'to', index),
        event: text(entry, 'event', index),
      };
    case 'agent_end': {
      const end: AgentEndEntry =
        entry.output === undefined
          ? { type: 'agent_end', response: text(entry, 'response', index) }
          : { type: 'agent_end', response: text(entry, 'response', index), output: jsonValue(entry.output, index) };
      return entry.reasoning === undefined ? end : { ...end, reasoning: reasoningOf(entry.reasoning, index) };
    }
    case 'agent_error': {
      const reason = text(entry, 'reason', index);
      if (!KNOWN_STOP_REASONS.has(reason)) fail(index, `unknown stop reason '${reason}'`);
      return { type: 'agent_error', reason: reason as never, message: text(entry, 'message', index) };
    }
    case 'budget_warning': {
      const used = entry.used;
      if (typeof used !== 'number' || !Number.isFinite(used)) fail(index, `'used' must be a number`);
      return { type: 'budget_warning', budget: text(entry, 'budget', index), used };
    }
    case 'compaction':
      return compactionOf(entry, index);
    case 'guardrail':
      return guardrailOf(entry, index);
    default:
      return fail(index, `unknown entry type ${JSON.stringify(entry.type)}`);
  }
}
