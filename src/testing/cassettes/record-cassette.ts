import { errorMessage, HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../../core/model-client.js';
import { type StreamEvent, StreamEventType } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { CASSETTE_VERSION, type Cassette, type CassetteTurn, type RecordedModelAnswer } from './cassette.js';
import { writeCassetteFile } from './cassette-file.js';
import { SecretRedactor } from './redact-secrets.js';
import { wireBody } from './wire-body.js';

/** Options of {@link recordCassette}. */
export interface RecordCassetteOptions {
  /** More to remove from what is written (regular expression sources), besides the built-in secrets. */
  readonly redact?: readonly string[];
  /** String metadata to keep with the cassette (a model name, say). */
  readonly meta?: Readonly<Record<string, string>>;
  /** Environment whose secret variables' values are redacted (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Also record each request's provider body (`ModelClient.wireRequest`: the JSON a built-in
   * client sends), so a replay with a `wire` client catches a change inside the adapter's
   * conversion. Each body holds the whole context, so the file grows with turns squared.
   */
  readonly wire?: boolean;
}

/** Something that holds a journal (a `Session`, an `Agent`'s session). */
export interface HasJournal {
  /** The journal. */
  readonly journal: readonly JournalEntry[];
}

/**
 * A {@link ModelClient} that passes every request to a real client and records the request as
 * sent and the answer as streamed, deltas included; {@link CassetteRecorder.save} writes them,
 * with the run's journal, as a cassette. Secrets are redacted before anything is kept.
 */
export class CassetteRecorder implements ModelClient {
  /** The model of the wrapped client. */
  readonly model: string | undefined;
  /** The provider of the wrapped client. */
  readonly provider: string | undefined;
  /** The turns recorded so far. */
  readonly turns: CassetteTurn[] = [];
  private readonly redactor: SecretRedactor;

  constructor(
    /** Where {@link CassetteRecorder.save} writes. */
    readonly path: string,
    private readonly client: ModelClient,
    private readonly options: RecordCassetteOptions = {},
  ) {
    this.model = client.model;
    this.provider = client.provider;
    this.redactor = new SecretRedactor(options.redact ?? [], options.env);
    if (options.wire === true && client.wireRequest === undefined) {
      throw new HarnessError(
        'invalid_argument',
        `recordCassette: wire: true needs a client that exposes its request body (wireRequest), as OpenAIClient and AnthropicClient do; ${client.provider ?? 'this client'} does not`,
      );
    }
  }

  /** Streams the wrapped client's answer, recording it. */
  async *chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const offered = this.redactor.value(tools ?? []);
    const request = {
      messages: this.redactor.value(messages).slice(),
      tools: offered.slice(),
      ...(options.output === undefined ? {} : { output: options.output }),
      ...(this.options.wire === true ? { wire: wireBody(this.client, this.redactor, messages, tools, options) } : {}),
    };
    const turn: { request: CassetteTurn['request']; answer?: RecordedModelAnswer } = { request };
    this.turns.push(turn);
    const events: StreamEvent[] = [];
    let ended = false;
    try {
      for await (const event of await this.client.chatCompletion(messages, tools, options)) {
        events.push(this.redactor.value(event));
        ended ||= event.type === StreamEventType.MESSAGE_COMPLETE || event.type === StreamEventType.ERROR;
        yield event;
      }
      turn.answer = { events };
    } catch (error) {
      turn.answer = { events, thrown: this.redactor.text(errorMessage(error)) };
      throw error;
    } finally {
      // The agent stops reading at `message_complete`; a stream cut before it has no answer.
      if (turn.answer === undefined && ended) turn.answer = { events };
    }
  }

  /** The cassette of what was recorded, with the run's journal (redacted). */
  cassette(journal: readonly JournalEntry[] | HasJournal): Cassette {
    const entries = Array.isArray(journal) ? journal : (journal as HasJournal).journal;
    const meta = {
      ...(this.model === undefined ? {} : { model: this.model }),
      ...(this.provider === undefined ? {} : { provider: this.provider }),
      ...this.options.meta,
    };
    return {
      version: CASSETTE_VERSION,
      source: 'recording',
      turns: this.turns.slice(),
      journal: entries.map((entry) => this.redactor.value(entry)),
      redact: this.options.redact ?? [],
      ...(Object.keys(meta).length === 0 ? {} : { meta: this.redactor.value(meta) }),
    };
  }

  /** Writes the cassette to {@link CassetteRecorder.path} (atomically, mode 0600). */
  async save(journal: readonly JournalEntry[] | HasJournal): Promise<Cassette> {
    const cassette = this.cassette(journal);
    await writeCassetteFile(this.path, cassette);
    return cassette;
  }
}

/**
 * Wraps a real client for a recording run: pass the result to the agent as its client, run,
 * then `await recorder.save(agent.session)` writes the cassette to `path`.
 *
 * @example
 * const recorder = recordCassette('runs/fix-bug.cassette.jsonl', new OpenAIClient({ model }));
 * const agent = new Agent(config, { client: recorder, tools });
 * for await (const _ of agent.run('fix the bug')) {}
 * await recorder.save(agent.session);
 */
export function recordCassette(
  path: string,
  client: ModelClient,
  options: RecordCassetteOptions = {},
): CassetteRecorder {
  return new CassetteRecorder(path, client, options);
}
