import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../core/agent-event.js';
import { errorMessage } from '../core/errors.js';
import type { JsonObject, ToolCall } from '../core/messages.js';
import { excerpt, printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';
import type { Output } from './render-human.js';
import { DEFAULT_STORE } from './store-flags.js';

/** Where the questions are asked: a terminal's input, and where the question is written. */
export interface PromptIo {
  readonly input: Readable;
  readonly output: Output;
}

/** How the CLI answers `tool_approval_request`s: by asking on a terminal, or by suspending the run. */
export interface CliApprovals {
  /** Called with each request the run emits; resolves once it is answered (or left for a resume). */
  onRequest(event: AgentEvent<'tool_approval_request'>): Promise<void>;
  /** The calls left undecided when the run was suspended. */
  readonly undecided: readonly ToolCall[];
  /**
   * Ctrl-C: closes the prompt (no further question) and, when the run waits only for
   * decisions, suspends it so that `resume` asks again. Returns true when it suspended the run
   * (otherwise the caller aborts it).
   */
  interrupt(): boolean;
  /** Stops listening (closes the terminal reader). */
  close(): void;
}

function argumentsText(call: AgentEvent<'tool_approval_request'>['data']): string {
  return excerpt(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments), 200);
}

/** Reads answers line by line; `next()` resolves with the next line, or undefined at the input's end. */
class LineReader {
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  /** The input reached its end. */
  ended = false;
  private readonly rl: Interface;

  constructor(input: Readable) {
    this.rl = createInterface({ input, terminal: false });
    this.rl.on('line', (line) => this.take(line));
    this.rl.on('close', () => {
      this.ended = true;
      this.take(undefined);
    });
  }

  private take(line: string | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting !== undefined) waiting(line);
    else if (line !== undefined) this.lines.push(line);
  }

  next(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined || this.ended) return Promise.resolve(line);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Gives up the line being waited for (the run ended). */
  cancel(): void {
    this.take(undefined);
  }

  close(): void {
    this.rl.close();
  }
}

/** The question's note of the policy rule that asked, if the request names one. */
function ruleText(call: AgentEvent<'tool_approval_request'>['data']): string {
  return call.rule === undefined ? '' : ` (rule ${printableLine(call.rule)})`;
}

/** What an edited line is, for `approve(callId, { arguments })`: a JSON object, or the problem. */
function editedArguments(line: string): { ok: true; value: JsonObject } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, problem: `not JSON: ${errorMessage(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'the arguments must be a JSON object' };
  return { ok: true, value: value as JsonObject };
}

/**
 * Asks on the terminal for each call that waits: `y` runs it, `n` denies it (then asks for an
 * optional reason), `a` runs it and every later call of the same tool in this process, `e` shows
 * its arguments as JSON on one line and runs it with the line typed back (checked against the
 * tool's schema: a bad edit says why and asks again; an empty line goes back to the question).
 * The question names the rule that asked and quotes the tool's name and arguments, which come
 * from the model: they pass through the printable filter. A run that ends while a question is
 * open (Ctrl-C, the time budget) drops it.
 */
export function terminalApprovals(agent: Agent, io: PromptIo): CliApprovals {
  const reader = new LineReader(io.input);
  const always = new Set<string>();
  const ended = agent.stream$.subscribe((record) => {
    const type = record.entry.type;
    if (type === 'agent_end' || type === 'agent_error') reader.cancel();
  });
  const ask = async (question: string): Promise<string | undefined> => {
    io.output.write(question);
    const line = await reader.next();
    if (line === undefined) io.output.write('\n');
    return line?.trim();
  };
  // Once the input ends, nobody can answer: the run is suspended, as without a terminal.
  let fallback: CliApprovals | undefined;
  const undecided: ToolCall[] = [];
  const giveUp = (): void => {
    if (fallback !== undefined || !reader.ended) return;
    fallback = suspendingApprovals(agent, undecided);
    if (agent.state === 'awaitingApproval') {
      undecided.splice(0, undecided.length, ...agent.pendingApprovals());
      agent.suspend();
    }
  };
  /** Asks for the edited arguments until they fit (`approved`), the line is empty (`back`), or the input ends. */
  const editLoop = async (
    call: AgentEvent<'tool_approval_request'>['data'],
  ): Promise<'approved' | 'back' | 'ended'> => {
    const now = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    io.output.write(`  arguments now: ${printableLine(now)}\n`);
    for (;;) {
      const line = await ask('  edited arguments (JSON on one line, Enter to go back): ');
      if (line === undefined) return 'ended';
      if (line === '') return 'back';
      const parsed = editedArguments(line);
      if (parsed.ok) {
        try {
          agent.approve(call.callId, { arguments: parsed.value });
          return 'approved';
        } catch (error) {
          io.output.write(`  ${printableLine(errorMessage(error))}\n`);
          continue;
        }
      }
      io.output.write(`  ${printableLine(parsed.problem)}\n`);
    }
  };
  let interrupted = false;
  return {
    undecided,
    async onRequest(event) {
      const { callId, name } = event.data;
      if (interrupted) return;
      if (always.has(name)) {
        agent.approve(callId);
        return;
      }
      if (reader.ended) return giveUp();
      const label = `${printableLine(name)} ${argumentsText(event.data)}${ruleText(event.data)}`;
      for (;;) {
        const answer = (await ask(`? allow ${label} — [y]es / [n]o / [a]lways / [e]dit: `))?.toLowerCase();
        // The run ended (the call was answered), or the input closed (the run is suspended).
        if (answer === undefined) return giveUp();
        if (answer === 'y' || answer === 'yes' || answer === 'a' || answer === 'always') {
          if (answer.startsWith('a')) always.add(name);
          agent.approve(callId);
          return;
        }
        if (answer === 'n' || answer === 'no') {
          const reason = await ask('  reason (optional, Enter to skip): ');
          agent.deny(callId, reason === undefined || reason === '' ? undefined : reason);
          return;
        }
        if (answer === 'e' || answer === 'edit') {
          const edited = await editLoop(event.data);
          if (edited === 'ended') return giveUp();
          if (edited === 'approved') return;
        }
      }
    },
    interrupt() {
      interrupted = true;
      const waiting = agent.state === 'awaitingApproval';
      if (waiting) undecided.splice(0, undecided.length, ...agent.pendingApprovals());
      const suspended = waiting && agent.suspend();
      reader.cancel();
      if (!suspended) undecided.length = 0;
      return suspended;
    },
    close() {
      ended.unsubscribe();
      fallback?.close();
      reader.close();
    },
  };
}

/**
 * Without a terminal nobody can answer: the run is suspended as soon as it waits only for
 * decisions (allowed calls of the turn still run first), and the waiting calls are kept for the
 * resume hint.
 */
export function suspendingApprovals(agent: Agent, undecided: ToolCall[] = []): CliApprovals {
  const subscription = agent.stream$.subscribe((record) => {
    const entry = record.entry;
    if (entry.type === 'transition' && entry.to === 'awaitingApproval') {
      // After the transition that entered the state has finished.
      setImmediate(() => {
        undecided.splice(0, undecided.length, ...agent.pendingApprovals());
        agent.suspend();
      });
    }
  });
  return {
    undecided,
    onRequest: () => Promise.resolve(),
    interrupt: () => false,
    close: () => subscription.unsubscribe(),
  };
}

/** Where a suspended run can be resumed from, for {@link resumeHint}. */
export interface ResumeFrom {
  /** The `--journal` file the run went on in, if any. */
  readonly journal?: string | undefined;
  /** The stored session's id and its store's URL, when the store outlives the process (not `memory:`). */
  readonly session?: { readonly id: string; readonly store: string } | undefined;
  /** Flags the resumed run needs to see the same tools (`--tools workspace`, `--cwd DIR`). */
  readonly flags?: readonly string[];
}

/** `text` as one shell word: unchanged when it is plain, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * What to tell the user after a suspended run: which calls wait, and how to go on — with
 * `agent-harness resume ID` when the session is in a lasting store, with `run --resume FILE` when
 * a journal file was written, or how to keep it next time when neither.
 */
export function resumeHint(undecided: readonly ToolCall[], from: ResumeFrom): string {
  const calls = undecided.map((call) => `${printableLine(call.name)} (${printableLine(call.callId)})`).join(', ');
  const names = [...new Set(undecided.map((call) => call.name))];
  const allow = names.map((name) => `--allow ${shellWord(name)}`).join(' ');
  const flags = (from.flags ?? []).map(shellWord);
  const lines = [`waiting for approval: ${calls || 'none'}`];
  const commands: string[] = [];
  if (from.session !== undefined) {
    const store =
      from.session.store === DEFAULT_STORE ? [] : ['--store', shellWord(redactPassword(from.session.store))];
    commands.push(['agent-harness resume', shellWord(from.session.id), ...store, ...flags].join(' '));
  }
  if (from.journal !== undefined) {
    commands.push(['agent-harness run --resume', shellWord(from.journal), ...flags].join(' '));
  }
  if (commands.length === 0) {
    lines.push(
      'the session was not saved: run again with --store sqlite:FILE or --journal FILE to keep it, or decide up front with --allow/--deny/--yes',
    );
  }
  for (const command of commands) {
    lines.push(`to resume on a terminal (you will be asked): ${printableLine(command)}`);
    lines.push(`to resume allowing them: ${printableLine(`${command} ${allow}`)}`);
  }
  return `${lines.join('\n')}\n`;
}
