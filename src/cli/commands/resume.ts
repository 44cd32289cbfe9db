import type { Output } from '../render-human.js';
import { sessionIdArg } from '../store-flags.js';
import { UsageError } from '../usage-error.js';
import { runCommand } from './run.js';

/** Help text of `agent-harness resume`. */
export const RESUME_HELP = `Usage: agent-harness resume ID [run options]

Finishes the interrupted run of the stored session ID (after a crash, kill -9, Ctrl-C or a
model error): tool calls with a recorded result never run again; a call that never started
runs; a call that started without a result runs again only if its tool is idempotent (read
tools), and is otherwise answered "Error: interrupted: …"; a model turn cut short is asked
again. The same as 'agent-harness run --session ID' with no task; it takes run's options
(--store, --provider, --model, --base-url, --max-turns, --journal, --json, …).
`;

/** `agent-harness resume ID`: `run --session ID` without a task. */
export function resumeCommand(
  argv: readonly string[],
  out: Output,
  signal?: AbortSignal,
  err?: Output,
): Promise<number> {
  const [id, ...rest] = argv;
  if (id === undefined || id.startsWith('-'))
    throw new UsageError('give the id of the session to resume, e.g. agent-harness resume 3f9c2a7d1e5b');
  if (rest.includes('--session') || rest.includes('--resume')) {
    throw new UsageError('resume ID names the session: --session and --resume do not go with it');
  }
  return runCommand(['--session', sessionIdArg(id, 'resume ID'), ...rest], out, signal, err);
}
