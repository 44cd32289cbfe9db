import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapPath, skipWithout } from '../../support/required-tools.js';
import { eventually, PLANTED_KEY, processesWith, sandboxFixture, seen } from './sandbox-fixture.js';

// Each escape runs twice: without the sandbox, to show the attempt works there (so the test can
// fail), then in bubblewrap, where it is refused and the result the model reads says so.
// Without bwrap these are skipped, except on CI (CI=true), where they run and fail.

const servers: Server[] = [];
const strays: number[] = [];

afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server on 127.0.0.1 that counts the connections it accepts. */
async function countingServer(): Promise<{ port: number; accepted: () => number }> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    socket.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { port: address.port, accepted: () => accepted };
}

/** A node one-liner that connects to 127.0.0.1:port and prints `connected` or the error code. */
function connectTo(port: number): string[] {
  const script =
    `require('net').connect(${port}, '127.0.0.1')` +
    `.on('connect', () => { console.log('connected'); process.exit(0); })` +
    `.on('error', (e) => { console.log('cannot connect: ' + e.code); process.exit(1); });`;
  return [process.execPath, '-e', script];
}

describe.skipIf(skipWithout('bwrap'))('shell in the bubblewrap sandbox: escape attempts', () => {
  it('cannot write outside the workspace (the result says "Read-only file system"), only inside it', async () => {
    const { root, ws, home, shell } = sandboxFixture();
    const elsewhere = `/var/tmp/agent-harness-escape-${process.pid}`; // outside /tmp, which is private
    const attempt = `echo in > inside.txt; echo out > ../outside.txt; echo out > "$HOME/planted.txt"; echo out > ${elsewhere}`;
    try {
      const plain = await shell('none')(attempt);
      expect(seen(plain)).toMatch(/^exit code 0/);
      expect([join(root, 'outside.txt'), join(home, 'planted.txt'), elsewhere].filter(existsSync)).toHaveLength(3);
      for (const path of [join(root, 'outside.txt'), join(home, 'planted.txt'), elsewhere]) rmSync(path);

      const boxed = await shell('bwrap')(attempt);
      expect(seen(boxed)).toMatch(/^exit code [1-9]/);
      expect(seen(boxed)).toContain('../outside.txt: Read-only file system');
      expect(seen(boxed)).toContain('planted.txt: Read-only file system');
      expect(seen(boxed)).toContain(`${elsewhere}: Read-only file system`);
      expect([join(root, 'outside.txt'), join(home, 'planted.txt'), elsewhere].filter(existsSync)).toEqual([]);
      expect(existsSync(join(ws, 'inside.txt'))).toBe(true);
    } finally {
      rmSync(elsewhere, { force: true });
    }
  });

  it('cannot read a planted ~/.ssh/id_rsa, ~/.aws credentials or the workspace .env', async () => {
    const { shell } = sandboxFixture();
    const attempt = 'cat ~/.ssh/id_rsa ~/.aws/credentials .env; cat README.md';
    expect(seen(await shell('none')(attempt))).toContain(PLANTED_KEY);

    const boxed = seen(await shell('bwrap')(attempt));
    expect(boxed).not.toContain(PLANTED_KEY);
    expect(boxed).toContain('.ssh/id_rsa: No such file or directory');
    expect(boxed).toContain('.aws/credentials: No such file or directory');
    expect(boxed).toContain('workspace file'); // the rest of the workspace reads as usual
  });

  it('cannot connect to a server on 127.0.0.1 of the host (no network), unless allowedHosts is ["*"]', async () => {
    const server = await countingServer();
    const { shell } = sandboxFixture();
    expect(seen(await shell('none')(connectTo(server.port)))).toContain('connected');
    expect(server.accepted()).toBe(1);

    const boxed = seen(await shell('bwrap')(connectTo(server.port)));
    expect(boxed).toMatch(/^exit code 1/);
    expect(boxed).toContain('cannot connect: ECONNREFUSED');
    expect(server.accepted()).toBe(1);

    expect(seen(await shell('bwrap', { allowedHosts: ['*'] })(connectTo(server.port)))).toContain('connected');
    expect(server.accepted()).toBe(2);
  });

  it('a child that leaves the process group (setsid) to outlive the time limit dies with the command', async () => {
    const { shell } = sandboxFixture();
    const marker = `42${process.pid}.${Date.now() % 100_000}`;
    const attempt = `setsid sleep ${marker} & sleep 30`;
    const plain = await shell('none')(attempt, 300);
    expect(plain.error).toMatch(/^command timed out after 300 ms/);
    const escaped = processesWith(marker);
    strays.push(...escaped);
    expect(escaped.length).toBe(1); // out of reach of a process-group kill

    const boxed = await shell('bwrap')(attempt.replace(marker, `${marker}1`), 300);
    expect(boxed.error).toMatch(/^command timed out after 300 ms; its process group was killed/);
    expect(await eventually(() => processesWith(`${marker}1`).length === 0)).toBe(true);
  });

  it("cannot read the host process's environment (an API key in it), by env or through /proc", async () => {
    const { ws } = sandboxFixture();
    const secret = `sk-host-secret-${process.pid}`;
    const host = fileURLToPath(new URL('./shell-host.ts', import.meta.url));
    const attempt = 'env; cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; true';
    const run = (mode: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', host, mode, bwrapPath(), ws, attempt], {
          env: { ...process.env, OPENAI_API_KEY: secret },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.on('error', reject);
        child.on('close', () => resolve(out));
      });
    expect(await run('none')).toContain(secret); // the host's /proc/PID/environ, readable without a sandbox
    const boxed = await run('bwrap');
    expect(boxed).toContain('exit code 0');
    expect(boxed).toContain('PATH=');
    expect(boxed).not.toContain(secret);
  }, 90_000); // two host processes start under tsx
});
