import { parseArgs } from 'node:util';
import type { JournalEntry } from '../../core/journal-entry.js';
import { printableLine } from '../../core/printable.js';
import { cancelRun, runOutcome, submitRun } from '../../restate/ingress-client.js';
import type { RunOutcome } from '../../restate/protocol.js';
import type { JournalStore } from '../../stores/journal-store.js';
import { storedLength } from '../../stores/stored-length.js';
import { ATTACHMENT_FLAGS, readAttachments, requireTaskFor, taskContent } from '../attachment-flags.js';
import type { Output } from '../render-human.js';
import { newSessionId } from '../run-session.js';
import { openCliStore, sessionIdArg, storeUrl } from '../store-flags.js';
import { UsageError } from '../usage-error.js';
import { followLine } from './follow-lines.js';
import { restateUrl } from './restate-url.js';

/** The help of `run --restate`, appended to `run --help`. */
export const RESTATE_RUN_HELP = `  --restate URL    submit the run to Restate's ingress (http://127.0.0.1:8080), where
                   'agent-harness worker' processes run it; follow it from --store until it ends.
                   Ctrl-C detaches (the run goes on); --session ID --cancel cancels it.
                   --image and --file go with the task (each worker checks them against its
                   own --max-attachment-bytes too)`;

const FLAGS = {
  restate: { type: 'string' },
  session: { type: 'string' },
  store: { type: 'string' },
  cancel: { type: 'boolean', default: false },
  ...ATTACHMENT_FLAGS,
} as const;

/** How often the store is read for the run's new entries, in ms. */
const FOLLOW_MS = 200;

/** `agent-harness run … --restate URL`: submits the run and follows it; returns the exit code. */
export async function restateRunCommand(
  argv: readonly string[],
  out: Output,
  signal?: AbortSignal,
  err: Output = process.stderr,
): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: true });
  const url = restateUrl(values.restate, "the Restate server's ingress");
  const task = positionals.join(' ').trim();
  // Read (and refused, naming the file) before anything is submitted; the worker checks them again against its cap.
  const attachments = readAttachments(values);
  if (values.cancel) {
    if (values.session === undefined)
      throw new UsageError('--cancel needs --session ID: the session whose run to cancel');
    if (task !== '' || attachments.parts.length > 0) throw new UsageError('--cancel takes no task');
    const sessionId = sessionIdArg(values.session, '--session');
    await cancelRun(url, sessionId);
    out.write(`cancelled the run of session ${sessionId}\n`);
    return 0;
  }
  if (task === '' && values.session === undefined) {
    throw new UsageError('missing the task, e.g. agent-harness run "Summarise README.md" --restate URL');
  }
  requireTaskFor(attachments, task);
  const sessionId = values.session === undefined ? newSessionId() : sessionIdArg(values.session, '--session');
  const store = await openCliStore(storeUrl(values.store)).catch((error: unknown) => {
    err.write(
      `note: cannot read the store to follow the run (${error instanceof Error ? error.message : String(error)}); the outcome comes at the end\n`,
    );
    return undefined;
  });
  try {
    const seen = store === undefined ? 0 : await storedLength(store, sessionId);
    const invocation = await submitRun(url, sessionId, taskContent(task, attachments.parts));
    out.write(`session: ${sessionId} (run ${invocation} on ${url})\n`);
    const follow = store === undefined ? undefined : following(store, sessionId, seen, out, url);
    const waiting = new AbortController();
    const outcome = await untilDetached(runOutcome(url, invocation, { signal: waiting.signal }), signal);
    waiting.abort();
    await follow?.stop();
    if (outcome === undefined) {
      out.write(
        `detached: the run goes on. Cancel it with: agent-harness run --restate ${url} --session ${sessionId} --cancel\n`,
      );
      return 130;
    }
    return report(outcome, out, store === undefined);
  } finally {
    await store?.close();
  }
}

/** Prints the run's new entries as the workers store them, until stopped (then once more). */
function following(store: JournalStore, sessionId: string, from: number, out: Output, url: string) {
  let printed = from;
  let stopped = false;
  const print = async (): Promise<void> => {
    let entries: readonly JournalEntry[];
    try {
      entries = (await store.read(sessionId)).entries as unknown as readonly JournalEntry[];
    } catch {
      return; // not created yet, or briefly unreadable: the next read catches up
    }
    for (const entry of entries.slice(printed)) {
      const line = followLine(entry);
      if (line !== undefined) out.write(`${line}\n`);
      if (entry.type === 'approval_request') {
        out.write(`  decide with: agent-harness approve ${sessionId} ${entry.callId} --restate ${url}  (or deny)\n`);
      }
    }
    printed = Math.max(printed, entries.length);
  };
  const loop = (async () => {
    while (!stopped) {
      await print();
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
    }
    await print();
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** The outcome, or undefined on Ctrl-C (or the caller's signal): the run is left going. */
function untilDetached(outcome: Promise<RunOutcome>, signal: AbortSignal | undefined): Promise<RunOutcome | undefined> {
  return new Promise((resolve, reject) => {
    const detach = (): void => {
      process.off('SIGINT', detach);
      resolve(undefined);
    };
    process.once('SIGINT', detach);
    signal?.addEventListener('abort', detach, { once: true });
    outcome.catch(() => {}); // after a detach, its abort is no news
    outcome.then(
      (value) => {
        process.off('SIGINT', detach);
        resolve(value);
      },
      (error: unknown) => {
        process.off('SIGINT', detach);
        reject(error);
      },
    );
  });
}

function report(outcome: RunOutcome, out: Output, unfollowed: boolean): number {
  if (outcome.status === 'done') {
    if (unfollowed) out.write(`${printableLine(outcome.response ?? '')}\n`);
    out.write(`done: final answer · session ${outcome.sessionId} (${outcome.entries} entries)\n`);
    return 0;
  }
  out.write(
    `✗ stopped (${printableLine(outcome.reason ?? 'error')})${outcome.message ? `: ${printableLine(outcome.message)}` : ''} · session ${outcome.sessionId}\n`,
  );
  return 1;
}
