import { errorMessage, HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient, ModelStream, RequestedOutput } from '../../core/model-client.js';
import { stableJson } from '../../core/stable-json.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { Cassette, CassetteTurn, RecordedModelAnswer, RecordedModelRequest } from './cassette.js';
import type { CassetteStep } from './divergence.js';
import { SecretRedactor } from './redact-secrets.js';
import type { StepMatcher } from './step-matcher.js';
import { wireBody } from './wire-body.js';

// biome-ignore lint/correctness/useYield: it only throws
async function* failing(error: Error): AsyncGenerator<StreamEvent> {
  throw error;
}

async function* serving(answer: RecordedModelAnswer, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  for (const event of answer.events) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('request aborted');
    yield event;
  }
  if (answer.thrown !== undefined) throw new Error(answer.thrown);
}

/**
 * The provider of the client a cassette was recorded with: its `meta.provider` (a recording),
 * else what the journal shows — the client named by a note of reasoning left out of a request,
 * or the provider of the last reasoning part (the model that made it answered the client's
 * requests); undefined when a part was left out for a client of no provider, or none shows.
 */
function recordedProvider(cassette: Cassette): string | undefined {
  if (cassette.source === 'recording') return cassette.meta?.provider;
  let made: string | undefined;
  for (const entry of cassette.journal) {
    if (entry.type === 'turn_start' && entry.droppedReasoning !== undefined && entry.droppedReasoning.length > 0) {
      return entry.droppedReasoning[0]?.client;
    }
    if (entry.type === 'assistant_message' || entry.type === 'agent_end') {
      made = entry.reasoning?.at(-1)?.provider ?? made;
    }
  }
  return made;
}

/** Stable JSON of an object, computed once per object (messages are frozen and shared). */
class JsonCache {
  private readonly texts = new WeakMap<object, string>();
  of(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = stableJson(value);
      this.texts.set(value, text);
    }
    return text;
  }
}

/** Where the client reads the new run's journal, for the step of a request. */
export interface JournalView {
  /** The new run's journal so far. */
  readonly journal: readonly JournalEntry[];
}

/**
 * The model of a replay: each request is matched against the recorded one (messages, tools
 * offered, structured output), then the recorded answer is served as it was streamed. A request
 * the recording has no answer for, or (unless the matcher keeps going) one that differs, fails
 * the stream with `cassette_diverged`, which ends the run: a replay never waits.
 */
export class ReplayClient implements ModelClient {
  /** The requests the new run sent (redacted as the cassette was). */
  readonly sent: RecordedModelRequest[] = [];
  /** The answers served, by turn. */
  readonly served: (RecordedModelAnswer | undefined)[] = [];
  private readonly json = new JsonCache();
  /** The last request that matched, both sides: their equal prefix need not be compared again. */
  private matched: { expected: readonly Message[]; actual: readonly Message[] } = { expected: [], actual: [] };
  private view: JournalView | undefined;
  /**
   * The provider of the recorded client, so that the new run sends each reasoning part back
   * (or leaves it out) as the recorded run did (SPEC §15).
   */
  provider: string | undefined;
  private cassette: Cassette = { version: 1, source: 'recording', turns: [], journal: [], redact: [] };
  private redactor: SecretRedactor = new SecretRedactor([], {});
  private truncated = false;
  /** The structured output the replay asks for in place of the recorded one (see {@link ReplayClient.rebuiltOutput}). */
  private outputAlias: { readonly rebuilt: string; readonly recorded: RequestedOutput } | undefined;

  /**
   * `wire`: a built-in client whose conversion turns each request into its provider body, to
   * compare with the body recorded (`recordCassette`'s `wire: true`); without it bodies are not compared.
   */
  constructor(
    private readonly matcher: StepMatcher,
    private readonly wire?: ModelClient,
  ) {}

  /**
   * Starts serving `cassette` to the run whose journal `view` holds (`redactor` redacts its
   * requests as the cassette was; `truncated`: the recording stops before its run ended).
   */
  begin(cassette: Cassette, view: JournalView, redactor: SecretRedactor, truncated: boolean): void {
    this.cassette = cassette;
    this.provider = recordedProvider(cassette);
    this.view = view;
    this.redactor = redactor;
    this.truncated = truncated;
  }

  /**
   * The replay asks for structured output with a schema rebuilt from the recorded JSON Schema,
   * whose own JSON Schema may differ in form (`additionalProperties: {}`): a request asking for
   * `rebuilt` is compared as asking for `recorded`.
   */
  rebuiltOutput(rebuilt: RequestedOutput, recorded: RequestedOutput): void {
    this.outputAlias = { rebuilt: stableJson(rebuilt), recorded };
  }

  /** Matches the request and serves the recorded answer. */
  chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): ModelStream {
    const turn = this.sent.length + 1;
    const request: RecordedModelRequest = {
      messages: this.redactor.value(messages),
      tools: this.redactor.value(tools ?? []),
      ...(options.output === undefined ? {} : { output: this.asRecorded(options.output) }),
      ...this.wireOf(messages, tools, options),
    };
    this.sent.push(request);
    const step = this.step(turn);
    const recorded = this.cassette.turns[turn - 1];
    if (recorded === undefined) {
      this.served.push(undefined);
      return failing(this.beyond(step, turn, request));
    }
    const differs = this.compare(recorded, request, step);
    if (differs && !this.matcher.keepGoing) {
      this.served.push(undefined);
      return failing(new HarnessError('cassette_diverged', `turn ${turn}: the request differs from the recording`));
    }
    const { answer } = recorded;
    this.served.push(answer);
    if (answer === undefined) {
      this.matcher.add(
        step,
        'recording ended',
        undefined,
        request,
        `recording ended at step ${step.entryIndex}: it holds no answer to model turn ${turn}`,
      );
      return failing(new HarnessError('cassette_diverged', `recording ended at step ${step.entryIndex}`));
    }
    if (answer.thrown === undefined && options.signal === undefined) return answer.events;
    return serving(answer, options.signal);
  }

  private asRecorded(output: RequestedOutput): RequestedOutput {
    const alias = this.outputAlias;
    return alias !== undefined && stableJson(output) === alias.rebuilt ? alias.recorded : output;
  }

  /** The provider body the `wire` client makes of the request (redacted), or the error it threw. */
  private wireOf(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    options: ChatCompletionOptions,
  ): { wire?: unknown } {
    if (this.wire === undefined) return {};
    try {
      return { wire: wireBody(this.wire, this.redactor, messages, tools, options) };
    } catch (error) {
      return { wire: { error: this.redactor.text(errorMessage(error)) } };
    }
  }

  private step(turn: number): CassetteStep {
    const journal = this.view?.journal ?? [];
    // The initial state is entered without a transition entry.
    let state = 'awaitingModel';
    for (let i = journal.length - 1; i >= 0; i--) {
      const entry = journal[i] as JournalEntry;
      if (entry.type === 'transition') {
        state = entry.to;
        break;
      }
    }
    return { turn, entryIndex: Math.max(0, journal.length - 1), state };
  }

  private beyond(step: CassetteStep, turn: number, request: RecordedModelRequest): Error {
    const recorded = this.cassette.turns.length;
    const message = this.truncated
      ? `recording ended at step ${step.entryIndex}: it holds ${recorded} model turn(s), the run asked for turn ${turn}`
      : `the run asked for model turn ${turn}; the recording's run ended after ${recorded}`;
    this.matcher.add(step, this.truncated ? 'recording ended' : 'extra request', undefined, request, message);
    return new HarnessError('cassette_diverged', message);
  }

  /** Whether the request differs from the recorded one; records each difference. */
  private compare(recorded: CassetteTurn, request: RecordedModelRequest, step: CassetteStep): boolean {
    const expected = recorded.request;
    // A cassette derived from a journal does not know the structured output asked for either.
    const output = this.cassette.source === 'journal' ? undefined : request.output;
    let differs = false;
    const messagesMatch = this.matcher.isTuned('request messages')
      ? this.matcher.same(
          'request messages',
          { messages: expected.messages, output: expected.output },
          { messages: request.messages, output },
          () => step,
        )
      : this.sameMessages(expected.messages, request.messages) &&
        stableJson(expected.output ?? null) === stableJson(output ?? null);
    if (!messagesMatch) {
      differs = true;
      this.matcher.add(
        step,
        'request messages',
        { messages: expected.messages, ...(expected.output ? { output: expected.output } : {}) },
        { messages: request.messages, ...(output ? { output } : {}) },
        `model turn ${step.turn} sent other messages than the recording`,
      );
    }
    // A cassette derived from a journal does not know the tools offered.
    if (expected.tools !== undefined) {
      const toolsMatch = this.matcher.isTuned('tools offered')
        ? this.matcher.same('tools offered', { tools: expected.tools }, { tools: request.tools }, () => step)
        : this.json.of(expected.tools) === this.json.of(request.tools ?? []);
      if (!toolsMatch) {
        differs = true;
        this.matcher.add(
          step,
          'tools offered',
          { tools: expected.tools },
          { tools: request.tools },
          `model turn ${step.turn} offered other tools than the recording`,
        );
      }
    }
    // The body is compared only when the request matched: a changed request changes it anyway.
    if (!differs && expected.wire !== undefined && request.wire !== undefined) {
      const wireMatch = this.matcher.same('wire request', { wire: expected.wire }, { wire: request.wire }, () => step);
      if (!wireMatch) {
        differs = true;
        this.matcher.add(
          step,
          'wire request',
          { wire: expected.wire },
          { wire: request.wire },
          `model turn ${step.turn} sent the same request, but the adapter converted it to another provider body than the recording`,
        );
      }
    }
    return differs;
  }

  /** Message by message, skipping the prefix both sides share with the last matched request. */
  private sameMessages(expected: readonly Message[], actual: readonly Message[]): boolean {
    if (expected.length !== actual.length) return false;
    const last = this.matched;
    for (let i = 0; i < actual.length; i++) {
      const a = actual[i] as Message;
      const e = expected[i] as Message;
      if (a === e || (a === last.actual[i] && e === last.expected[i])) continue;
      if (this.json.of(a) !== this.json.of(e)) return false;
    }
    this.matched = { expected, actual };
    return true;
  }
}
