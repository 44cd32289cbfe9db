import { checkContent } from '../core/content-check.js';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import type { DroppedReasoning, JournalEntry } from '../core/journal-entry.js';
import type { JsonObject, ToolCall } from '../core/messages.js';
import { isTokenCount, type TokenUsage } from '../core/usage.js';
import { droppedReasoningOf } from './journal-check.js';

// The entries a Session appends, built and checked: frozen, and shared where they are all alike.

/** A tool call as {@link Session.addAssistantMessage} accepts it: `callId`, or the seed's `id`. */
export type ToolCallInput =
  | ToolCall
  | { readonly id: string; readonly name: string; readonly arguments: JsonObject | string };

/** The checked, frozen tool call of `toolCalls[index]` (`invalid_argument` naming what is wrong). */
export function toToolCall(input: ToolCallInput, index: number): ToolCall {
  if (typeof input !== 'object' || input === null) {
    throw new HarnessError('invalid_argument', `toolCalls[${index}] must be an object with callId, name, arguments`);
  }
  const callId = 'callId' in input ? input.callId : input.id;
  if (typeof callId !== 'string' || callId === '') {
    throw new HarnessError('invalid_argument', `toolCalls[${index}] needs a non-empty callId (or id)`);
  }
  if (typeof input.name !== 'string' || input.name === '') {
    throw new HarnessError('invalid_argument', `toolCalls[${index}] (${callId}) needs a non-empty name`);
  }
  return Object.freeze({ callId, name: input.name, arguments: input.arguments });
}

/** Every `turn_start` entry that left no reasoning out: they are all alike, and entries are frozen. */
export const TURN_START: JournalEntry = Object.freeze({ type: 'turn_start' });

/** The `turn_start` of a request that left out reasoning parts, noting each (`invalid_argument` naming what is wrong). */
export function turnStartDropping(droppedReasoning: readonly DroppedReasoning[]): JournalEntry {
  const notes = droppedReasoningOf(droppedReasoning);
  if (typeof notes === 'string') throw new HarnessError('invalid_argument', `startTurn: ${notes}`);
  return Object.freeze({ type: 'turn_start', droppedReasoning: notes });
}

/**
 * Transition entries, one frozen object per distinct (from, to, event): a run journals four per
 * turn, and a finished session keeps them all, so sharing them saves memory (docs/performance.md).
 * The keys come from the machine's few states and events.
 */
// Keyed from -> to -> event: the names are the machine's constant strings, so each lookup is
// three hashes already cached, where one joined key was a new string to flatten and hash.
const transitions = new Map<string, Map<string, Map<string, JournalEntry>>>();
/** How many distinct transitions are shared at most (the machine has a few dozen). */
const MAX_SHARED_TRANSITIONS = 256;
let sharedTransitions = 0;

/** The frozen `transition` entry (from, to, event), shared with every other one alike. */
export function transitionEntry(from: string, to: string, event: string): JournalEntry {
  const shared = transitions.get(from)?.get(to)?.get(event);
  if (shared !== undefined) return shared;
  const entry: JournalEntry = Object.freeze({ type: 'transition', from, to, event });
  if (sharedTransitions < MAX_SHARED_TRANSITIONS) {
    shareTransition(from, to, event, entry);
    sharedTransitions++;
  }
  return entry;
}

function shareTransition(from: string, to: string, event: string, entry: JournalEntry): void {
  let byTo = transitions.get(from);
  if (byTo === undefined) {
    byTo = new Map();
    transitions.set(from, byTo);
  }
  let byEvent = byTo.get(to);
  if (byEvent === undefined) {
    byEvent = new Map();
    byTo.set(to, byEvent);
  }
  byEvent.set(event, entry);
}

const DETAIL_KEYS = ['cachedPromptTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** A usage checked (whole token counts), frozen with its three counts and the details it has. */
export function checkUsage(usage: TokenUsage): TokenUsage {
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens'] as const) {
    const value = usage[key];
    if (!isTokenCount(value)) {
      throw new HarnessError('invalid_argument', `usage.${key} must be a non-negative integer, got ${String(value)}`);
    }
  }
  // A frozen usage of exactly these keys (the adapters' and the scripted client's) is kept as it is.
  if (Object.isFrozen(usage) && hasOnlyUsageKeys(usage)) return usage;
  const checked: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
  };
  for (const key of DETAIL_KEYS) {
    const value = usage[key];
    if (value === undefined) continue;
    if (!isTokenCount(value)) {
      throw new HarnessError('invalid_argument', `usage.${key} must be a non-negative integer, got ${String(value)}`);
    }
    checked[key] = value;
  }
  return Object.freeze(checked);
}

function hasOnlyUsageKeys(usage: TokenUsage): boolean {
  let keys = 0;
  for (const _ in usage) keys++;
  return keys === 3 && Object.getPrototypeOf(usage) === Object.prototype;
}

/**
 * A user message's or tool result's content: a string, or content parts that pass
 * {@link checkContent} (no size cap here: `Config.maxAttachmentBytes` is the agent's).
 */
export function requireContent(value: unknown, name: string): MessageContent {
  if (typeof value !== 'string' && !Array.isArray(value))
    throw new HarnessError('invalid_argument', `${name} must be a string or content parts, got ${typeof value}`);
  return checkContent(value, name, Number.POSITIVE_INFINITY);
}

/** `value`, when it is a string; `invalid_argument` naming it otherwise. */
export function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string')
    throw new HarnessError('invalid_argument', `${name} must be a string, got ${typeof value}`);
  return value;
}
