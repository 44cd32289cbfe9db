import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import { Config } from '../config/config.js';
import type { StopReason } from '../core/agent-event.js';
import type { ApprovalDecision, PolicyDecisionRecord } from '../core/approval-types.js';
import type { Compaction } from '../core/compaction.js';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import type { GuardrailVerdict } from '../core/guardrail.js';
import type { AgentEndEntry, AssistantMessageEntry, DroppedReasoning, JournalEntry } from '../core/journal-entry.js';
import type { JsonValue, Message, ReasoningContent, ToolCall, ToolResultMessage } from '../core/messages.js';
import type { ModelClient } from '../core/model-client.js';
import { isCheckedReasoning } from '../core/reasoning.js';
import type { ModelSwitch } from '../core/stream-event.js';
import type { TokenUsage } from '../core/usage.js';
import type { JournalStore, JournalWriter, StoredEntry } from '../stores/journal-store.js';
import { checkSessionId } from '../stores/session-id.js';
import { ToolRegistry } from '../tools/registry.js';
import { type ChildJournals, ChildSessions } from './child-sessions.js';
import { checkEntry, reasoningOf } from './journal-check.js';
import {
  checkUsage,
  requireContent,
  requireText,
  type ToolCallInput,
  TURN_START,
  toToolCall,
  transitionEntry,
  turnStartDropping,
} from './journal-entries.js';
import { type AppendListener, JournalLog, type LogRecord } from './journal-log.js';
import { checkToolPairing } from './journal-pairing.js';
import { checkJournalVersion, checkStoredJournalVersion, JOURNAL_VERSION } from './journal-version.js';
import { applyEntry, initialState, type SessionState } from './session-state.js';
import { SessionWriter, type StoreFailureListener } from './session-writer.js';

export type { ToolCallInput } from './journal-entries.js';

/** Options of {@link Session}. */
export interface SessionOptions {
  /**
   * The model client the agent will call.
   * @deprecated Give it to the agent: `new Agent(config, { client, tools, session })`. Kept, and
   * read by an agent given none, for one minor version.
   */
  readonly client?: ModelClient;
  /**
   * The tools the agent may run; an empty registry by default.
   * @deprecated Give them to the agent: `new Agent(config, { client, tools, session })`. Kept, and
   * read by an agent given none, for one minor version.
   */
  readonly registry?: ToolRegistry;
  /** Wall clock for {@link SessionSnapshot.savedAt} (ms since the epoch); `Date.now` by default. */
  readonly clock?: () => number;
  /**
   * A store to append every entry to as it happens, in the durability order of SPEC §8 (see
   * docs/persistence.md). The session is created in it under `id`; an id the store already holds
   * is refused (continue that one with {@link Session.load}). Call {@link Session.close} when done.
   */
  readonly store?: JournalStore;
  /** The session's id in `store` (1-128 of `A-Z a-z 0-9 . _ -`); a random UUID by default. */
  readonly id?: string;
  /** String metadata stored with a new session in `store` (the model name, its rates, …). */
  readonly meta?: Readonly<Record<string, string>>;
  /**
   * Journals of the child agents this session's calls ran without a store (a snapshot's
   * `children`, by session id): a resumed call in doubt continues its child from there instead
   * of running it again (see {@link Session.children}). Checked entry by entry (`invalid_journal`).
   */
  readonly children?: ChildJournals;
}

/** Options of {@link Session.replay}. */
export interface ReplayOptions extends SessionOptions {
  /**
   * The format version of the journal replayed: from a version 1 journal (no write-ahead
   * `tool_started`), the calls still owed are in doubt, and a session replayed into a `store`
   * is stored as version 1 too. Default: the `version` that `parseJournal` / `readJournalFile`
   * put on the entries they return, else the current version.
   */
  readonly journalVersion?: number;
}

/** Options of {@link Session.load}. */
export interface LoadOptions {
  /** The configuration to run with; `new Config()` by default. */
  readonly config?: Config;
  /**
   * The model client the agent will call.
   * @deprecated Give it to the agent: `new Agent(config, { client, tools, session })`.
   */
  readonly client?: ModelClient;
  /**
   * The tools the agent may run.
   * @deprecated Give them to the agent: `new Agent(config, { client, tools, session })`.
   */
  readonly registry?: ToolRegistry;
  /** Wall clock for {@link SessionSnapshot.savedAt}. */
  readonly clock?: () => number;
  /** How long to wait for another writer's lock, in ms (default 0: `session_locked` at once). */
  readonly lockWaitMs?: number;
}

/** Options of {@link Session.loadAt}. */
export interface LoadAtOptions {
  /** How many stored entries the session had when the run began (the run's entries follow). */
  readonly at: number;
  /** The configuration to run with; `new Config()` by default. */
  readonly config?: Config;
  /** String metadata stored with the session when this call creates it. */
  readonly meta?: Readonly<Record<string, string>>;
  /** Wall clock for {@link SessionSnapshot.savedAt}. */
  readonly clock?: () => number;
  /** How long to wait for another writer's lock, in ms (default 0: `session_locked` at once). */
  readonly lockWaitMs?: number;
}

/** What {@link Session.loadAt} returns. */
export interface LoadedAt {
  /** The session before the run, bound to its store. */
  readonly session: Session;
  /** The entries an earlier execution of the run stored, which this one makes again. */
  readonly recorded: readonly StoredEntry[];
}

/** Options of {@link Session.fork}. */
export interface ForkOptions {
  /** How many entries of this session's journal the fork starts with (0 to `journalLength`). */
  readonly at: number;
  /** The new session's id; a random UUID by default. */
  readonly id?: string;
  /** The store of the fork; this session's store by default (none: an in-memory fork). */
  readonly store?: JournalStore;
}

/** Metadata key holding the journal version of a stored session. */
export const JOURNAL_VERSION_META = 'journalVersion';

/** A saved session: its journal plus when it was saved. */
export interface SessionSnapshot {
  /** Journal format version; see {@link JOURNAL_VERSION}. */
  readonly version: number;
  /** ISO-8601 time of saving. Never part of journal-derived state. */
  readonly savedAt: string;
  /** The journal: everything the session's state folds from. */
  readonly journal: readonly JournalEntry[];
  /**
   * The journals of the child agents its calls ran without a store (`agentTool`), by session id,
   * as deep as they nested; absent when there are none.
   */
  readonly children?: ChildJournals;
}

/**
 * The conversation, its usage and turn count, event-sourced: every mutator appends exactly one
 * journal entry, and all state is a fold over the journal, so `Session.replay` rebuilds it.
 */
export class Session {
  /** The configuration the session was made with. */
  readonly config: Config;
  /**
   * The model client given to the session, if any: an agent given no client of its own calls it.
   * @deprecated The agent holds its client (`Agent.client`); kept for one minor version.
   */
  readonly client: ModelClient | undefined;
  /**
   * The tools given to the session (an empty registry by default): an agent given no tools of its
   * own runs these.
   * @deprecated The agent holds its tools (`Agent.tools`); kept for one minor version.
   */
  get registry(): ToolRegistry {
    this.givenRegistry ??= new ToolRegistry(this.config);
    return this.givenRegistry;
  }
  /** Made on first read when none was given: a session whose agent holds the tools needs none. */
  private givenRegistry: ToolRegistry | undefined;
  private readonly log = new JournalLog();
  private readonly state: SessionState;
  // Frozen copies handed out by the getters, made on first read after a change: a caller can
  // neither append to the journal nor slip a message into the model's context behind the
  // journal's back (state is a fold over the journal).
  private journalView: readonly JournalEntry[] | undefined;
  private messagesView: readonly Message[] | undefined;
  private readonly clock: () => number;
  /** The store's reader of the log, when the session has a store. */
  private writer: SessionWriter | undefined;
  /** The store the session appends to, if any. */
  readonly store: JournalStore | undefined;
  /** The session's id in {@link Session.store} (undefined without a store). */
  readonly id: string | undefined;
  /** What loading from the store dropped or repaired (a torn last append), for the user to see. */
  readonly warnings: readonly string[] = [];
  /**
   * The sessions of the child agents this session's calls ran without a store (`agentTool`),
   * kept in memory so that a resumed run continues a child instead of running it again; saved
   * with {@link Session.toJSON}. Empty with a store, which keeps children beside their parent.
   * Made on first use: most sessions run no agent tool.
   */
  get children(): ChildSessions {
    this.childSessions ??= new ChildSessions();
    return this.childSessions;
  }
  private childSessions: ChildSessions | undefined;
  /**
   * Calls a journal of version 1 (no write-ahead `tool_started`) still owed when it was read:
   * they may have run, so they are in doubt, never taken for calls that did not start.
   */
  private startsNotJournaled: ReadonlySet<string> | undefined;

  constructor(config: Config, options: SessionOptions = {}) {
    this.config = config;
    this.client = options.client;
    this.givenRegistry = options.registry;
    this.clock = options.clock ?? Date.now;
    this.state = initialState(config.systemPrompt);
    this.store = options.store;
    // Saved children are checked now (invalid_journal), not when a call first looks for them.
    if (options.children !== undefined) this.childSessions = new ChildSessions(options.children);
    this.id = options.store === undefined ? options.id : checkSessionId(options.id ?? randomUUID());
    if (options.store !== undefined) {
      // A fork keeps the version of the journal it copies (see Session.fork).
      const version = (options as ForkedSessionOptions).journalVersion ?? JOURNAL_VERSION;
      const meta = { ...options.meta, [JOURNAL_VERSION_META]: String(version) };
      this.writer = new SessionWriter(openNew(options.store, this.id as string, meta), this.log, 0, {
        location: options.store.location,
        sessionId: this.id as string,
      });
    }
  }

  /**
   * Rebuilds a session from its store, byte for byte (same journal), and takes its writer's lock:
   * the run goes on appending to it. Throws `session_not_found`, `session_locked` (another live
   * writer), `journal_corrupt` naming the entry, `unsupported_journal_version`, `store_error`.
   * A torn last append is dropped and reported in {@link Session.warnings}.
   */
  static async load(store: JournalStore, id: string, options: LoadOptions = {}): Promise<Session> {
    checkSessionId(id);
    // Read (session_not_found, without creating it), lock, then read again if anything was
    // appended meanwhile: nobody can append between the last read and the first write.
    let stored = await store.read(id);
    const writer = await store.openWriter(
      id,
      options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs },
    );
    try {
      if (stored.entries.length !== writer.length) stored = await store.read(id);
      const version = stored.meta[JOURNAL_VERSION_META];
      const readVersion = version === undefined ? JOURNAL_VERSION : checkStoredJournalVersion(version);
      if (stored.entries.length !== writer.length) {
        throw new HarnessError(
          'store_error',
          `session '${id}' in ${store.location}: read ${stored.entries.length} entries but the writer is at ${writer.length}`,
        );
      }
      const session = Session.replay(stored.entries, options.config ?? new Config(), {
        client: options.client,
        registry: options.registry,
        clock: options.clock,
        journalVersion: readVersion,
      });
      session.attach(store, id, writer, stored.warnings);
      return session;
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  /**
   * For durable execution (`agent-harness/restate`), where a run is executed again from its
   * start on another worker after a crash: the session as it was before the run (its first `at`
   * stored entries), holding the writer's lock, and writing only the entries past those already
   * stored. The run executed again makes the stored entries `recorded` once more (the caller
   * checks that it does); only what comes after them is appended. A new session is created.
   */
  static async loadAt(store: JournalStore, id: string, options: LoadAtOptions): Promise<LoadedAt> {
    checkSessionId(id);
    const meta = { ...options.meta, [JOURNAL_VERSION_META]: String(JOURNAL_VERSION) };
    const writer = await store.openWriter(id, {
      meta,
      ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
    });
    try {
      const stored = writer.length === 0 ? { entries: [], warnings: [], meta } : await store.read(id);
      const version = stored.meta[JOURNAL_VERSION_META];
      const journalVersion = version === undefined ? undefined : checkStoredJournalVersion(version);
      const { at } = options;
      if (stored.entries.length !== writer.length || !Number.isSafeInteger(at) || at < 0 || at > writer.length) {
        throw new HarnessError(
          'store_error',
          `session '${id}' in ${store.location}: the run began at entry ${at}, but the store holds ${stored.entries.length} entries (its writer is at ${writer.length})`,
        );
      }
      // As Session.load: a version 1 journal's calls still owed are in doubt.
      const session = Session.replay(stored.entries.slice(0, at), options.config ?? new Config(), {
        clock: options.clock,
        journalVersion,
      });
      session.attach(store, id, writer, stored.warnings, writer.length);
      return { session, recorded: stored.entries.slice(at) };
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  /**
   * A new session made of the first `at` entries of this one's journal (time travel: try another
   * answer from any earlier point), in this session's store under a new id unless told otherwise.
   * This session is untouched. Resolves once the fork is durable.
   */
  async fork(options: ForkOptions): Promise<Session> {
    const { at } = options ?? {};
    if (!Number.isSafeInteger(at) || at < 0 || at > this.log.length) {
      throw new HarnessError(
        'invalid_argument',
        `fork({ at }) needs a whole number from 0 to ${this.log.length} (the journal's length), got ${String(at)}`,
      );
    }
    const store = options.store ?? this.store;
    const forked: ForkedSessionOptions = {
      client: this.client,
      registry: this.givenRegistry,
      clock: this.clock,
      ...(store === undefined ? {} : { store, id: options.id ?? randomUUID() }),
      // Copied calls a version 1 journal owes stay in doubt when the fork is loaded again.
      ...(this.startsNotJournaled === undefined ? {} : { journalVersion: 1 }),
    };
    const fork = Session.replay(this.log.slice(0, at), this.config, forked);
    if (this.startsNotJournaled !== undefined) fork.startsNotJournaled = this.startsNotJournaled;
    if (store !== undefined) await fork.durable();
    return fork;
  }

  /**
   * Resolves once every entry appended so far is durable in the store (at once without one);
   * rejects with the store's failure (`store_error`, `session_locked`, …) once it has failed.
   */
  durable(): Promise<void> {
    return this.writer === undefined ? Promise.resolve() : this.writer.durable();
  }

  /**
   * For the loop's durable points: undefined when nothing is waiting to be durable (no store,
   * everything written, or the store failed: see {@link Session.storeFailure}), else a promise,
   * never rejected, that settles when it is durable or the store has failed.
   */
  settled(): Promise<void> | undefined {
    return this.writer?.settled();
  }

  /** Why the store stopped taking entries, once it has failed (nothing after the last durable entry was written). */
  get storeFailure(): HarnessError | undefined {
    return this.writer?.failure;
  }

  /** Calls `listener` once if the store fails; returns the function that stops it. */
  onStoreFailure(listener: StoreFailureListener): () => void {
    return this.writer?.onFailure(listener) ?? (() => {});
  }

  /**
   * Writes what is pending and releases the session's lock in its store (no-op without one);
   * rejects with the store's failure if it failed. Entries appended after closing stay in memory
   * only, and a new run on the session is refused (`store_error`): load it again to go on.
   */
  async close(): Promise<void> {
    await this.writer?.close();
  }

  /** Binds a replayed session to its store's writer (its entries so far are the stored ones). */
  private attach(
    store: JournalStore,
    id: string,
    writer: JournalWriter,
    warnings: readonly string[],
    from = this.log.length,
  ): void {
    const self = this as { -readonly [K in 'store' | 'id' | 'warnings']: Session[K] };
    self.store = store;
    self.id = id;
    self.warnings = Object.freeze([...warnings]);
    this.writer = new SessionWriter(writer, this.log, from, { location: store.location, sessionId: id });
  }

  /** The model's context so far: a frozen snapshot (its messages are frozen too). */
  get messages(): readonly Message[] {
    this.messagesView ??= Object.freeze(this.state.messages.slice());
    return this.messagesView;
  }

  /**
   * The context to send with a model request: a new array of the (frozen) messages, which a
   * client may keep or change without touching the session.
   */
  messagesForRequest(): Message[] {
    return this.state.messages.slice();
  }

  /** Whether any turn of the session carried reasoning parts (SPEC §15). */
  get hasReasoning(): boolean {
    return this.state.reasoned;
  }

  /** Model requests made so far. */
  get turnCount(): number {
    return this.state.turnCount;
  }

  /** Usage summed over every request. */
  get totalUsage(): TokenUsage {
    return this.state.totalUsage;
  }

  /**
   * The append-only journal so far: a frozen snapshot of frozen entries (read it again to see
   * later entries; {@link Session.journalFrom} gives just the new ones).
   */
  get journal(): readonly JournalEntry[] {
    this.journalView ??= Object.freeze(this.log.slice());
    return this.journalView;
  }

  /** How many entries the journal holds. */
  get journalLength(): number {
    return this.log.length;
  }

  /** The journal entries from index `start` on (a new array). */
  journalFrom(start: number): readonly JournalEntry[] {
    if (!Number.isSafeInteger(start) || start < 0)
      throw new HarnessError('invalid_argument', `journalFrom(start) needs an index >= 0, got ${String(start)}`);
    return this.log.slice(start);
  }

  /**
   * The journal from index `start` on, then live: entries already there arrive synchronously on
   * subscription, then each new one as it is appended, with no gap and no duplicate (what the
   * inspector, a store or a UI that joins late reads).
   */
  follow(start = 0): Observable<LogRecord> {
    return this.log.follow(start);
  }

  /**
   * Calls `listener` synchronously with each entry appended from now on (the agent publishes
   * them on its stream this way); returns the function that stops it.
   */
  onAppend(listener: AppendListener): () => void {
    return this.log.listen(listener);
  }

  /** The last final answer while it has not yet joined `messages` (see contract §3). */
  get pendingAnswer(): string | undefined {
    return this.state.pendingAnswer;
  }

  /**
   * Tool calls of the last assistant turn that have no result yet: what an interrupted run
   * still owes. Empty when that turn is fully answered or the context has moved on.
   */
  pendingToolCalls(): ToolCall[] {
    const { openCalls, nextResult, heldResults } = this.state;
    if (openCalls === undefined || this.state.pendingAnswer !== undefined) return [];
    const owed = openCalls.slice(nextResult);
    return heldResults === undefined ? owed : owed.filter((call) => !heldResults.has(call.callId));
  }

  /**
   * Whether the journal records that this call of the last assistant turn started (a
   * `tool_started` entry): a pending call that started is in doubt after a crash.
   */
  toolCallStarted(callId: string): boolean {
    return (this.state.startedCalls?.has(callId) ?? false) || (this.startsNotJournaled?.has(callId) ?? false);
  }

  /**
   * Read from a journal of `version`: before version 2 the calls still owed may have started
   * unjournaled. A store keeps the version a session was created with, so a version 1 session
   * continued by this library holds `tool_started` entries: from the first one on, it is trusted.
   */
  private noteJournalVersion(version: number): void {
    if (version >= 2 || this.log.slice().some((entry) => entry.type === 'tool_started')) return;
    const owed = this.pendingToolCalls();
    if (owed.length > 0) this.startsNotJournaled = new Set(owed.map((call) => call.callId));
  }

  /**
   * The child session a call of the open turn started, as its `tool_started` entry recorded it
   * (an `agentTool` call): a resumed call in doubt finds the same child again, whatever id the
   * resumed session has.
   */
  startedChildSession(callId: string): string | undefined {
    return this.state.startedCalls?.get(callId);
  }

  /**
   * The decision journaled for a call of the last assistant turn that asked for approval, if
   * any (a resumed run applies it instead of asking again).
   */
  approvalDecision(callId: string): ApprovalDecision | undefined {
    return this.state.decisions?.get(callId);
  }

  /** This session's decisions so far (a person's and the policy functions'), oldest first. */
  get decisionHistory(): readonly PolicyDecisionRecord[] {
    return this.state.decisionHistory;
  }

  /** Records that a call waits for a decision (tool policy `ask`), with the rule that asked. */
  recordApprovalRequest(callId: string, rule?: string): void {
    requireText(callId, 'callId');
    this.append(rule === undefined ? { type: 'approval_request', callId } : { type: 'approval_request', callId, rule });
  }

  /**
   * Records a decision on a call: a person's on one that asked (with edited arguments, if they
   * were edited), or a policy function's (with its rule).
   */
  recordApprovalDecision(callId: string, decision: ApprovalDecision): void {
    requireText(callId, 'callId');
    const rule = decision.rule === undefined ? {} : { rule: decision.rule };
    this.append(
      decision.approved
        ? {
            type: 'approval_decision',
            callId,
            approved: true,
            ...rule,
            ...(decision.arguments === undefined ? {} : { arguments: decision.arguments }),
          }
        : { type: 'approval_decision', callId, approved: false, reason: decision.reason, ...rule },
    );
  }

  /**
   * Records the start of a model request, with a note for each reasoning part the request
   * left out (SPEC §15), if any.
   */
  startTurn(droppedReasoning?: readonly DroppedReasoning[]): void {
    this.append(droppedReasoning === undefined ? TURN_START : turnStartDropping(droppedReasoning));
  }

  /**
   * Adds a user message (after the previous final answer, if one is pending): a string, or
   * content parts (text, images, files; SPEC §15), validated (`invalid_content`).
   */
  addUserMessage(content: MessageContent): void {
    this.append({ type: 'user_message', content: requireContent(content, 'user message content') });
  }

  /** Adds a message the harness itself wrote to the model, in the user role. */
  addHarnessMessage(content: string): void {
    this.append({ type: 'user_message', content: requireText(content, 'content'), author: 'harness' });
  }

  /**
   * Adds an assistant turn and the tool calls it asked for (an array, or `{ toolCalls }` as
   * the seed's keyword argument).
   */
  addAssistantMessage(
    content: string,
    toolCalls: readonly ToolCallInput[] | { readonly toolCalls?: readonly ToolCallInput[] } = [],
    reasoning?: readonly ReasoningContent[],
  ): void {
    const text = requireText(content, 'content');
    const list = Array.isArray(toolCalls) ? toolCalls : ((toolCalls as { toolCalls?: unknown }).toolCalls ?? []);
    if (!Array.isArray(list)) throw new HarnessError('invalid_argument', 'toolCalls must be an array of tool calls');
    const calls = (list as readonly ToolCallInput[]).map(toToolCall);
    const entry: AssistantMessageEntry =
      calls.length > 0
        ? { type: 'assistant_message', content: text, toolCalls: Object.freeze(calls) }
        : { type: 'assistant_message', content: text };
    this.append(
      reasoning === undefined || reasoning.length === 0 ? entry : { ...entry, reasoning: checkedReasoning(reasoning) },
    );
  }

  /**
   * Adds the observation that answers one tool call: `({callId, content})` or `(callId, content)`;
   * the content is a string or content parts.
   */
  addToolResult(result: ToolResultMessage | string, content?: MessageContent): void {
    const message = typeof result === 'string' ? { callId: result, content } : (result ?? {});
    this.append({
      type: 'tool_result',
      callId: requireText(message.callId, 'callId'),
      content: requireContent(message.content, 'tool result content'),
    });
  }

  /**
   * Adds the observation of a call that spent usage on the session's behalf (a child agent's
   * requests): one `tool_result` entry carrying both, so the usage counts exactly once.
   */
  addChildToolResult(callId: string, content: MessageContent, usage: TokenUsage): void {
    this.append({
      type: 'tool_result',
      callId: requireText(callId, 'callId'),
      content: requireContent(content, 'tool result content'),
      usage: checkUsage(usage),
    });
  }

  /**
   * Records that the conversation was handed from agent `from` to agent `to`, whose
   * `instructions` become the system message for the next requests.
   */
  recordHandoff(from: string, to: string, instructions: string): void {
    this.append({
      type: 'handoff',
      from: requireText(from, 'from'),
      to: requireText(to, 'to'),
      instructions: requireText(instructions, 'instructions'),
    });
  }

  /** The agent the conversation was last handed to, or undefined while it is the session's own. */
  get activeAgent(): string | undefined {
    return this.state.activeAgent;
  }

  /** Adds one request's usage to the total, with the model that answered when a fallback chain named it. */
  trackUsage(usage: TokenUsage, model?: string): void {
    this.append(
      model === undefined
        ? { type: 'usage', usage: checkUsage(usage) }
        : { type: 'usage', usage: checkUsage(usage), model: requireText(model, 'model') },
    );
  }

  /** Records that a fallback client left one model for the next, and why. */
  recordModelSwitch(modelSwitch: ModelSwitch): void {
    this.append({
      type: 'model_switch',
      from: requireText(modelSwitch.from, 'from'),
      to: requireText(modelSwitch.to, 'to'),
      reason: requireText(modelSwitch.reason, 'reason'),
      message: modelSwitch.message,
    });
  }

  /** Clears messages, usage and turns (the journal keeps the history and the reset). */
  reset(): void {
    this.append({ type: 'reset' });
  }

  /** Records a machine transition (the agent calls this). */
  recordTransition(from: string, to: string, event: string): void {
    this.append(transitionEntry(from, to, event));
  }

  /**
   * Records, before it runs, that a tool call is starting (write-ahead), with the tool's
   * `source` when it has one (`mcp:<server>`), so a saved journal still names the server, and
   * the session of the child agent it runs (an `agentTool`), so the journal references it.
   */
  recordToolStart(callId: string, source?: string, childSessionId?: string): void {
    const id = requireText(callId, 'callId');
    if (childSessionId !== undefined) {
      this.append({
        type: 'tool_started',
        callId: id,
        ...(source === undefined ? {} : { source: requireText(source, 'source') }),
        childSessionId: requireText(childSessionId, 'childSessionId'),
      });
      return;
    }
    this.append(
      source === undefined
        ? { type: 'tool_started', callId: id }
        : { type: 'tool_started', callId: id, source: requireText(source, 'source') },
    );
  }

  /** Records a run's final answer. */
  recordEnd(response: string, output?: JsonValue, reasoning?: readonly ReasoningContent[]): void {
    const entry: AgentEndEntry =
      output === undefined ? { type: 'agent_end', response } : { type: 'agent_end', response, output };
    this.append(
      reasoning === undefined || reasoning.length === 0 ? entry : { ...entry, reasoning: checkedReasoning(reasoning) },
    );
    this.log.trim();
  }

  /**
   * The parsed structured answer of the last run, when it asked for one and ended with an answer
   * (read from its journaled `agent_end`, so a replayed session has the same value).
   */
  get lastOutput(): JsonValue | undefined {
    const journal = this.journal;
    for (let index = journal.length - 1; index >= 0; index--) {
      const entry = journal[index];
      if (entry?.type === 'agent_end') return entry.output;
      if (entry?.type === 'agent_error' || entry?.type === 'user_message' || entry?.type === 'reset') return undefined;
    }
    return undefined;
  }

  /** Records why a run stopped without an answer. */
  recordError(reason: StopReason, message: string): void {
    this.append({ type: 'agent_error', reason, message });
    this.log.trim();
  }

  /** Records a guardrail's verdict (the agent calls this before it uses the value checked). */
  recordGuardrail(verdict: GuardrailVerdict): void {
    const { guardrail, stage, outcome, reason, callId } = verdict;
    this.append({
      type: 'guardrail',
      guardrail,
      stage,
      outcome,
      ...(reason === undefined ? {} : { reason }),
      ...(callId === undefined ? {} : { callId }),
    });
  }

  /** Records that a soft budget limit was crossed. */
  recordBudgetWarning(budget: string, used: number): void {
    this.append({ type: 'budget_warning', budget, used });
  }

  /** Records a compaction of the context: the messages it names are replaced from now on (the agent calls this). */
  recordCompaction(compaction: Compaction): void {
    const { strategy, from, to, messages, tokensBefore, tokensAfter, tokenScale } = compaction;
    this.append({
      type: 'compaction',
      strategy,
      from,
      to,
      messages: Object.freeze(messages.slice()),
      tokensBefore,
      tokensAfter,
      ...(tokenScale === undefined ? {} : { tokenScale: { reported: tokenScale.reported, used: tokenScale.used } }),
    });
  }

  /**
   * A snapshot for saving: the journal, its version (1 for a session read from a version 1
   * journal that owed calls then, else the current one), the wall-clock time of saving, and the
   * journals of the child agents its calls ran without a store ({@link Session.children}).
   */
  toJSON(): SessionSnapshot {
    const snapshot = {
      // Calls a version 1 journal owes stay in doubt when the snapshot is restored (as in Session.fork).
      version: this.startsNotJournaled === undefined ? JOURNAL_VERSION : 1,
      savedAt: new Date(this.clock()).toISOString(),
      journal: this.log.slice(), // a snapshot: later entries must not appear in it
    };
    const children = this.childSessions?.journals();
    // Copies, like the journal's: a child's later entries must not appear in it either.
    if (children === undefined || children.size === 0) return snapshot;
    return { ...snapshot, children: Object.fromEntries([...children].map(([id, journal]) => [id, journal.slice()])) };
  }

  /**
   * Rebuilds a session from {@link Session.toJSON} output, with its child sessions' journals
   * (`children`, unless `options.children` gives others); refuses unknown versions.
   */
  static fromJSON(snapshot: unknown, config: Config = new Config(), options: SessionOptions = {}): Session {
    if (typeof snapshot !== 'object' || snapshot === null) {
      throw new HarnessError('invalid_journal', 'session snapshot must be an object');
    }
    const { version, journal, children } = snapshot as { version?: unknown; journal?: unknown; children?: unknown };
    const readVersion = checkJournalVersion(version);
    if (!Array.isArray(journal)) throw new HarnessError('invalid_journal', "session snapshot has no 'journal' array");
    const replayOptions = { ...options, journalVersion: readVersion };
    return options.children !== undefined || children === undefined
      ? Session.replay(journal, config, replayOptions)
      : Session.replay(journal, config, { ...replayOptions, children: children as ChildJournals });
  }

  /**
   * Rebuilds a session by applying every journal entry in order. The result's journal is
   * byte-identical (as stable JSON) to the input. The journal's version is
   * `options.journalVersion`, else the one `parseJournal` put on its entries (a version 1
   * journal's calls still owed are in doubt). Throws `invalid_journal` naming a malformed
   * entry, `journal_corrupt` naming a tool result that is missing, forged or doubled,
   * `unsupported_journal_version`.
   */
  static replay(journal: readonly unknown[], config: Config = new Config(), options: ReplayOptions = {}): Session {
    if (!Array.isArray(journal))
      throw new HarnessError(
        'invalid_journal',
        `Session.replay(journal): the journal must be an array of entries, got ${journal === null ? 'null' : typeof journal}`,
      );
    const { journalVersion, ...sessionOptions } = options;
    const given = journalVersion ?? (journal as { readonly version?: unknown }).version;
    const version = given === undefined ? JOURNAL_VERSION : checkJournalVersion(given);
    const entries = journal.map((raw, i) => checkEntry(raw, i));
    // A deleted or altered tool_result would send a request with an unanswered call.
    const unpaired = checkToolPairing(entries);
    if (unpaired !== undefined) throw new HarnessError('journal_corrupt', unpaired.message);
    // Stored, a copy of a version 1 journal stays version 1, so that loading it keeps its calls in doubt.
    const created: ForkedSessionOptions = version < 2 ? { ...sessionOptions, journalVersion: 1 } : sessionOptions;
    const session = new Session(config, created);
    for (const entry of entries) session.append(entry);
    session.noteJournalVersion(version);
    return session;
  }

  private append(entry: JournalEntry): void {
    // State first, then the log: a follower that reads the session on an entry sees it applied.
    applyEntry(this.state, entry, this.config.systemPrompt);
    this.journalView = undefined;
    this.messagesView = undefined;
    this.log.append(entry);
  }
}

/** The options `fork` passes: those of a session, and the journal version its store records. */
interface ForkedSessionOptions extends SessionOptions {
  readonly journalVersion?: number;
}

/** Opens the writer of a session that must be new in `store`. */
async function openNew(
  store: JournalStore,
  id: string,
  meta: Readonly<Record<string, string>>,
): Promise<JournalWriter> {
  const writer = await store.openWriter(id, { meta });
  if (writer.length > 0) {
    await writer.close();
    throw new HarnessError(
      'invalid_argument',
      `session '${id}' already exists in ${store.location} (${writer.length} entries); continue it with Session.load`,
    );
  }
  return writer;
}

/** Reasoning parts as a session journals them: checked and frozen (`invalid_argument` otherwise). */
function checkedReasoning(reasoning: readonly ReasoningContent[]): readonly ReasoningContent[] {
  if (Object.isFrozen(reasoning) && reasoning.every(isCheckedReasoning)) return reasoning;
  try {
    return reasoningOf(reasoning, 0);
  } catch (error) {
    throw new HarnessError(
      'invalid_argument',
      `reasoning: ${(error as Error).message.replace(/^journal entry 0: /, '')}`,
    );
  }
}
