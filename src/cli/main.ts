import { errorMessage, HarnessError } from '../core/errors.js';
import { printableLine } from '../core/printable.js';
import { DEMO_HELP, demoCommand } from './commands/demo.js';
import { FORK_HELP, forkCommand } from './commands/fork.js';
import { GRAPH_HELP, graphCommand } from './commands/graph.js';
import { INSPECT_HELP, inspectCommand } from './commands/inspect.js';
import { MCP_COMMAND_HELP, mcpCommand } from './commands/mcp.js';
import { REPLAY_HELP, replayCommand } from './commands/replay.js';
import { RESUME_HELP, resumeCommand } from './commands/resume.js';
import { RUN_HELP, runCommand } from './commands/run.js';
import { SESSIONS_HELP, sessionsCommand } from './commands/sessions.js';
import type { Output } from './render-human.js';
import { APPROVE_HELP, approveCommand, DENY_HELP, denyCommand } from './restate/decide-command.js';
import { RESTATE_RUN_HELP, restateRunCommand } from './restate/run-command.js';
import { WORKER_HELP, workerCommand } from './restate/worker-command.js';

/** A CLI command: parses its own arguments, returns the exit code. `err` takes warnings. */
export type Command = (argv: readonly string[], out: Output, signal?: AbortSignal, err?: Output) => Promise<number>;

/** Library errors that mean the command line asked for something impossible. */
const USAGE_REASONS = new Set([
  'invalid_config',
  'nothing_to_resume',
  'invalid_journal',
  'journal_corrupt', // tool results that do not pair with their calls (checkToolPairing)
  'unsupported_journal_version',
  'session_not_found', // a session id that the store does not hold
  'session_locked', // another live run writes that session
  'invalid_cassette',
  'unsupported_cassette_version',
]);

/** Exit code for bad usage. */
export const EXIT_USAGE = 2;

/** `run`, or with `--restate URL` the same run submitted to Restate's workers. */
const runOrSubmit: Command = (argv, out, signal, err) =>
  argv.some((arg) => arg === '--restate' || arg.startsWith('--restate='))
    ? restateRunCommand(argv, out, signal, err)
    : runCommand(argv, out, signal, err);

const COMMANDS: Record<string, { run: Command; help: string }> = {
  demo: { run: demoCommand, help: DEMO_HELP },
  run: { run: runOrSubmit, help: RUN_HELP.replace('\nKeys come from', `${RESTATE_RUN_HELP}\n\nKeys come from`) },
  resume: { run: resumeCommand, help: RESUME_HELP },
  sessions: { run: sessionsCommand, help: SESSIONS_HELP },
  fork: { run: forkCommand, help: FORK_HELP },
  graph: { run: graphCommand, help: GRAPH_HELP },
  inspect: { run: inspectCommand, help: INSPECT_HELP },
  replay: { run: replayCommand, help: REPLAY_HELP },
  mcp: { run: mcpCommand, help: MCP_COMMAND_HELP },
  worker: { run: workerCommand, help: WORKER_HELP },
  approve: { run: approveCommand, help: APPROVE_HELP },
  deny: { run: denyCommand, help: DENY_HELP },
};

const HELP = `Usage: agent-harness <command> [options]

Commands:
  demo     run an agent offline on a scripted model (no network, no key)
  run      run an agent on a real model (OpenAI, Anthropic or any OpenAI-compatible server);
           every entry is stored as it happens (sqlite:.agent-harness/sessions.db by default)
  resume   finish the interrupted run of a stored session (resume ID)
  sessions list the stored sessions
  fork     start a new session from the first N entries of one (fork ID --at N)
  graph    print the machine diagram (Mermaid, Graphviz DOT or JSON)
  inspect  serve a local inspector page for a saved journal or a stored session (time travel)
  replay   re-drive a recorded run with your current code and report where it differs
           (replay FILE|ID --agent MODULE --check)
  mcp      list the tools of MCP servers (mcp list --mcp "CMD ARGS")
  worker   serve agent sessions for Restate: runs outlive their workers (worker --restate URL)
  approve  approve a call that waits in a run on Restate (approve ID CALL --restate URL)
  deny     deny a call that waits in a run on Restate (deny ID CALL --restate URL)

Run 'agent-harness <command> --help' for a command's options.
Exit codes: 0 final answer, 1 agent error, 2 bad usage.
`;

/** Runs the CLI with the given arguments (without `node` and the script). */
export async function main(
  argv: readonly string[],
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    err.write(HELP);
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    out.write(HELP);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    err.write(
      `agent-harness: unknown command '${printableLine(name)}'. Commands: ${Object.keys(COMMANDS).join(', ')}\n`,
    );
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest, out, undefined, err);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // A bad option value that a library refused (a model name, a budget), or a file named on the
    // command line that is missing or is not a journal, is a usage mistake too.
    const usage =
      (typeof code === 'string' && (code.startsWith('ERR_PARSE_ARGS') || code === 'ENOENT')) ||
      (HarnessError.isInstance(error) && USAGE_REASONS.has(error.reason));
    // One line, as docs/cli.md promises (Node's parseArgs explains some mistakes over three);
    // messages may quote a journal line or a server's words, so filtered for the terminal.
    err.write(`agent-harness ${name}: ${printableLine(errorMessage(error))}\n`);
    return usage ? EXIT_USAGE : 1;
  }
}
