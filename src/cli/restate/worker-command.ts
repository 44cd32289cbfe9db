import { parseArgs } from 'node:util';
import { registerDeployment } from '../../restate/admin-client.js';
import { loadOptional } from '../../stores/load-optional.js';
import type { Env } from '../make-client.js';
import { joinNegativeValues, positiveInteger } from '../numeric-flags.js';
import { PERMISSION_FLAGS, PERMISSION_HELP, POLICY_HELP } from '../permission-flags.js';
import type { Output } from '../render-human.js';
import { openCliStore, STORE_HELP, storeUrl } from '../store-flags.js';
import { UsageError } from '../usage-error.js';
import { restateUrl } from './restate-url.js';
import { workerAgent } from './worker-agent.js';

/** Help text of `agent-harness worker`. */
export const WORKER_HELP = `Usage: agent-harness worker --restate ADMIN_URL [options]

Serves agent sessions for Restate (agent-harness/restate): each model turn and tool call is a
durable step, so a run whose worker dies goes on on another one. Registers itself with the Restate
server's admin API, then serves until Ctrl-C. Submit runs with 'agent-harness run --restate'.

Options:
  --restate URL    the Restate server's admin API (http://127.0.0.1:9070)
  --port N         port to serve on (default 9080); --host H the interface (default 127.0.0.1)
  --advertise URL  register this URL instead of the worker's own: the load balancer in front of
                   several workers (they form one deployment)
  --no-register    do not register (another worker or an operator registers the balancer)
  --demo           the demo's scripted model and files (offline, no key): see 'npm run demo:restate'
${STORE_HELP}
                   Every worker of a deployment must use the same store (postgres:// across
                   machines, sqlite: on one): inspect, fork and resume read it
  --provider P, --model NAME, --base-url URL, --max-turns N, --max-cost USD, --timeout T,
  --cwd DIR, --tools SET, --sandbox MODE, --allow-net HOST
                   the agent, as for 'agent-harness run'; --provider ai-sdk:<package>/<model>
                   loads an installed AI SDK provider package (looked for in --cwd first)
  --max-attachment-bytes N
                   the cap on one image or file in a task or a tool result (default 5 MiB)
${PERMISSION_HELP}
                   A call that asks waits durably: 'agent-harness approve ID CALL' decides it
${POLICY_HELP}

Start a server (one documented command, offline): npx @restatedev/restate-server
`;

const FLAGS = {
  restate: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  advertise: { type: 'string' },
  'no-register': { type: 'boolean', default: false },
  demo: { type: 'boolean', default: false },
  store: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'max-turns': { type: 'string' },
  'max-cost': { type: 'string' },
  timeout: { type: 'string' },
  cwd: { type: 'string' },
  tools: { type: 'string' },
  sandbox: { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  policy: { type: 'string' },
  'max-attachment-bytes': { type: 'string' },
  ...PERMISSION_FLAGS,
} as const;

/** What `worker` takes from its surroundings; tests replace them. */
export interface WorkerDeps {
  readonly env?: Env;
}

/** Builds the `worker` command. */
export function createWorkerCommand(deps: WorkerDeps = {}) {
  return async (
    argv: readonly string[],
    out: Output,
    signal?: AbortSignal,
    err: Output = process.stderr,
  ): Promise<number> => {
    const args = joinNegativeValues(argv, ['port', 'max-turns', 'max-cost', 'timeout', 'max-attachment-bytes']);
    const { values, positionals } = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw new UsageError(`worker takes no task, got '${positionals.join(' ')}'`);
    const admin = restateUrl(values.restate, "the Restate server's admin API, e.g. http://127.0.0.1:9070");
    const advertise = values.advertise === undefined ? undefined : restateUrl(values.advertise, 'the URL to register');
    const port = values.port === undefined ? 9080 : positiveInteger(values.port, '--port');
    const env = deps.env ?? process.env;
    const store = storeUrl(values.store, env as NodeJS.ProcessEnv);
    const { config, client, registry } = await workerAgent(values, store, env, err);
    const journals = await openCliStore(store);
    const { serveWorker } = await loadOptional(
      '@restatedev/restate-sdk',
      'agent-harness worker',
      () => import('../../restate/worker.js'),
    );
    const worker = await serveWorker({
      store: journals,
      port: port ?? 9080,
      host: values.host,
      agent: () => ({ config, client, tools: registry }),
    });
    try {
      if (!values['no-register']) await registerDeployment(admin, advertise ?? worker.url);
      out.write(
        `worker: serving ${worker.url}${values['no-register'] ? '' : ` (registered ${advertise ?? worker.url} with ${admin})`}; store ${journals.location}\n`,
      );
      await stopped(signal);
      return 0;
    } finally {
      await worker.close();
      await journals.close();
    }
  };
}

/** Resolves on Ctrl-C, SIGTERM or the caller's signal. */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    const finish = (): void => {
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      done();
    };
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    if (signal?.aborted) finish();
    signal?.addEventListener('abort', finish, { once: true });
  });
}

/** `agent-harness worker`. */
export const workerCommand = createWorkerCommand();
