/**
 * `npm run demo:restate`: the scale-out path on one machine, offline. Starts a Restate server
 * (the npm package's binary, telemetry off, in a temporary folder), one `agent-harness worker
 * --demo` (the demo's scripted model), and submits the demo task with `agent-harness run
 * --restate`, which follows the run to its end. Then stops both and says where the journal is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TASK } from '../src/cli/demo-script.js';
import { startDevServer } from '../src/restate/dev-server.js';
import { freePort } from '../test/support/free-port.js';

const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'bin.js');

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

const folder = mkdtempSync(join(tmpdir(), 'agent-harness-restate-demo-'));
const store = `sqlite:${join(folder, 'sessions.db')}`;
console.log('starting a Restate server (restate-server from npm, offline) …');
const server = await startDevServer();
console.log(`  ingress ${server.ingressUrl}, admin ${server.adminUrl}`);
const port = await freePort();
const worker = spawn(
  process.execPath,
  [cli, 'worker', '--restate', server.adminUrl, '--port', String(port), '--demo', '--store', store],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let code = 1;
try {
  await new Promise<void>((resolve, reject) => {
    let printed = '';
    let serving = false;
    worker.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (!serving && printed.includes('worker: serving')) {
        serving = true;
        process.stdout.write(
          printed
            .split('\n')
            .filter((line) => line.startsWith('worker:'))
            .join('\n') + '\n',
        );
        resolve();
      }
    });
    worker.once('exit', (status) => reject(new Error(`the worker exited (${status}):\n${printed}`)));
  });
  console.log(`$ agent-harness run "${DEMO_TASK}" --restate ${server.ingressUrl} --store ${store}`);
  const run = spawn(process.execPath, [cli, 'run', DEMO_TASK, '--restate', server.ingressUrl, '--store', store], {
    stdio: 'inherit',
  });
  code = await exited(run);
  console.log(`the journal is in ${store}: agent-harness sessions --store ${store}`);
} finally {
  worker.kill('SIGTERM');
  await exited(worker);
  await server.stop();
}
process.exitCode = code;
