import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { postgresRoot, postgresVersions } from './required-tools.js';

/**
 * A throwaway PostgreSQL server for the tests, started on first use by whichever test worker asks
 * first (the others wait for it), in the folder the global setup made (test/support/postgres-global-setup.ts),
 * and stopped by the global setup's teardown. Nothing is started when no postgres test runs.
 */

/** The bin folder of the newest Debian PostgreSQL under `root`, or an error saying how to install it. */
export function postgresBin(root = postgresRoot()): string {
  const newest = postgresVersions(root)[0];
  if (newest === undefined) {
    throw new Error(
      `PostgreSQL server binaries not found (${root}/*/bin/initdb): the postgres store tests need a real server; install it with: apt-get install -y postgresql`,
    );
  }
  return join(root, newest, 'bin');
}

/** Runs a PostgreSQL program as the `postgres` OS user when we are root (the server refuses root). */
function runAsPostgres(program: string, args: readonly string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, [...args]];
  return execFileSync(command, all, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

interface ServerInfo {
  readonly pgCtl: string;
  readonly data: string;
}

async function startServer(dir: string): Promise<string> {
  const bin = postgresBin();
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  runAsPostgres(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const info: ServerInfo = { pgCtl: join(bin, 'pg_ctl'), data };
  writeFileSync(join(dir, 'server.json'), JSON.stringify(info));
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    // A test server: the client processes are what the crash tests kill, never this server.
    '-c fsync=off',
    '-c full_page_writes=off',
  ].join(' ');
  runAsPostgres(info.pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await client.connect();
  await client.query('CREATE DATABASE harness_test');
  await client.end();
  return `postgres://postgres@127.0.0.1:${port}/harness_test`;
}

async function waitFor(dir: string): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (existsSync(join(dir, 'url'))) return readFileSync(join(dir, 'url'), 'utf8');
    if (existsSync(join(dir, 'error'))) throw new Error(readFileSync(join(dir, 'error'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for the test PostgreSQL server in ${dir}`);
}

/**
 * The URL of the tests' PostgreSQL database, starting the server if no worker has yet. Throws (so
 * the test fails, never skips) when the server binaries are missing or it cannot start.
 */
export async function startedPostgres(dir: string): Promise<string> {
  try {
    mkdirSync(join(dir, 'starting'));
  } catch {
    return waitFor(dir);
  }
  try {
    const url = await startServer(dir);
    writeFileSync(join(dir, 'url.tmp'), url);
    renameSync(join(dir, 'url.tmp'), join(dir, 'url'));
    return url;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    writeFileSync(join(dir, 'error'), message);
    throw error;
  }
}

/** Stops the server started in `dir`, if one was (`pg_ctl stop -m immediate`). */
export function stopPostgres(dir: string): void {
  const file = join(dir, 'server.json');
  if (!existsSync(file)) return;
  const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
  try {
    runAsPostgres(info.pgCtl, ['-D', info.data, '-m', 'immediate', '-w', 'stop']);
  } catch {
    // Not running (initdb or start failed): nothing to stop.
  }
}
