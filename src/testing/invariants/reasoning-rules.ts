import type { CompactionEntry, DroppedReasoning, JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import { stableJson } from '../../core/stable-json.js';
import { applyEntry, initialState } from '../../session/session-state.js';
import { type LoopViolation, violation } from './loop-violation.js';

/** A turn's identity in the context: its text and its calls (ids, names, arguments). */
function turnOf(message: Message): string {
  return message.role === 'assistant' ? stableJson([message.content, message.toolCalls ?? []]) : '';
}

/**
 * A compaction keeps each reasoning part with the turn that made it: a message it writes holds
 * reasoning only when it is a turn it replaced, with the same calls and the same parts in the same
 * order, and a turn it keeps keeps all of its reasoning (SPEC §15: a part is never orphaned).
 */
function compactionKeepsReasoning(context: readonly Message[], entry: CompactionEntry, at: number): LoopViolation[] {
  const problems: LoopViolation[] = [];
  const replaced = context.slice(entry.from, entry.to).filter((message) => message.role === 'assistant');
  entry.messages.forEach((message, i) => {
    const reasoning = (message as { reasoning?: unknown }).reasoning;
    if (message.role !== 'assistant') {
      if (reasoning !== undefined)
        problems.push(
          violation(
            'reasoning_integrity',
            `entry ${at} (compaction): message ${i} is a ${message.role} message with reasoning`,
          ),
        );
      return;
    }
    const made = replaced.find((turn) => turnOf(turn) === turnOf(message));
    const madeReasoning = made?.role === 'assistant' ? made.reasoning : undefined;
    if (reasoning !== undefined && madeReasoning === undefined) {
      problems.push(
        violation(
          'reasoning_integrity',
          `entry ${at} (compaction): message ${i} keeps reasoning apart from the turn that made it (its message or tool calls were dropped)`,
        ),
      );
    } else if (madeReasoning !== undefined && stableJson(reasoning ?? []) !== stableJson(madeReasoning)) {
      problems.push(
        violation(
          'reasoning_integrity',
          `entry ${at} (compaction): message ${i} keeps its turn but not its reasoning as made (a part dropped, changed or reordered)`,
        ),
      );
    }
  });
  return problems;
}

/**
 * A request's notes name reasoning parts of the context it was sent with, each once, each made by
 * another provider than the client's; and every part the client's provider did not make is noted.
 */
function notesMatchContext(
  context: readonly Message[],
  notes: readonly DroppedReasoning[],
  at: number,
): LoopViolation[] {
  const problems: LoopViolation[] = [];
  const fail = (message: string) =>
    problems.push(violation('reasoning_integrity', `entry ${at} (turn_start): ${message}`));
  const client = notes[0]?.client;
  const noted = new Set<string>();
  for (const note of notes) {
    const where = `message ${note.message} part ${note.part}`;
    const message = context[note.message];
    const part = message?.role === 'assistant' ? message.reasoning?.[note.part] : undefined;
    if (part === undefined) fail(`notes a dropped reasoning part at ${where}, which the context does not hold`);
    else if (part.provider !== note.provider)
      fail(`notes ${where} as made by '${note.provider}', but '${part.provider}' made it`);
    if (note.client !== client) fail(`notes parts dropped for two clients ('${client}' and '${note.client}')`);
    if (note.client === note.provider) fail(`notes ${where} as dropped for its own provider '${note.provider}'`);
    if (noted.has(where)) fail(`notes ${where} twice`);
    noted.add(where);
  }
  context.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    message.reasoning?.forEach((part, p) => {
      if (part.provider !== client && !noted.has(`message ${index} part ${p}`))
        fail(
          `leaves out the parts of other providers than '${client}' but does not note message ${index} part ${p} (${part.provider})`,
        );
    });
  });
  return problems;
}

/**
 * SPEC §15's reasoning integrity, on the journal alone: folding it as a session does, every
 * compaction keeps each reasoning part with its turn (message and tool calls), and every request
 * that left parts out noted exactly those of the context it was sent with. Fork, resume and
 * handoff are journal prefixes, continuations and a system message, so the fold covers them.
 * A journal that cannot be folded is left to the replay rule.
 */
export function reasoningIntegrity(
  journal: readonly JournalEntry[],
  systemPrompt: string | undefined,
): LoopViolation[] {
  // Only compactions and drop notes can break it: a journal with neither is not folded again.
  if (!journal.some((entry) => entry.type === 'compaction' || (entry.type === 'turn_start' && entry.droppedReasoning)))
    return [];
  const problems: LoopViolation[] = [];
  const state = initialState(systemPrompt);
  for (const [at, entry] of journal.entries()) {
    if (entry.type === 'compaction') problems.push(...compactionKeepsReasoning(state.messages, entry, at));
    if (entry.type === 'turn_start' && entry.droppedReasoning !== undefined)
      problems.push(...notesMatchContext(state.messages, entry.droppedReasoning, at));
    try {
      applyEntry(state, entry, systemPrompt);
    } catch {
      return problems;
    }
  }
  return problems;
}
