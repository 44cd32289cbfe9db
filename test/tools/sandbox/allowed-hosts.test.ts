import { readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../support/required-tools.js';
import { eventually, sandboxFixture, seen } from './sandbox-fixture.js';

// Real bubblewrap, real socat, real servers on 127.0.0.1; the command inside is curl, which
// reads HTTP_PROXY/HTTPS_PROXY (or is told --noproxy to go direct).

interface TestServer {
  readonly port: number;
  /** `Host` header and path of each request it answered. */
  readonly seen: string[];
  /** Connections open now. */
  readonly open: () => number;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** An HTTP server on 127.0.0.1 answering `reached HOST PATH`; a path of `/hang` never answers. */
async function testServer(): Promise<TestServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response) => {
    requests.push(`${request.headers.host} ${request.url}`);
    if (request.url === '/hang') return;
    response.end(`reached ${request.headers.host} ${request.url}\n`);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { port: address.port, seen: requests, open: () => sockets.size };
}

/** The allow-list proxies' folders in the temp folder now. */
function proxyFolders(): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('agent-harness-proxy-'))
    .sort();
}

/** curl, quiet but for errors, with a short connect time-out; `--proxytunnel` makes it CONNECT. */
function curl(url: string, ...flags: string[]): string[] {
  return ['curl', '-sS', '--max-time', '10', ...flags, url];
}

describe.skipIf(skipWithout('bwrap') || skipWithout('socat'))('shell in bubblewrap with allowedHosts', () => {
  it('reaches a listed host through the proxy, as an http:// request and through CONNECT', async () => {
    const server = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`localhost:${server.port}`] });
    expect(seen(await run(curl(`http://localhost:${server.port}/plain`)))).toBe(
      `exit code 0\n[stdout]\nreached localhost:${server.port} /plain`,
    );
    // Names match in any case; through a tunnel the Host header is the program's own.
    expect(seen(await run(curl(`http://LocalHost:${server.port}/tunnel`, '--proxytunnel')))).toBe(
      `exit code 0\n[stdout]\nreached LocalHost:${server.port} /tunnel`,
    );
    expect(server.seen).toEqual([`localhost:${server.port} /plain`, `LocalHost:${server.port} /tunnel`]);
  });

  it('refuses a host not on the list with 403, and the result names the host and the list', async () => {
    const listed = await testServer();
    const other = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`localhost:${listed.port}`, 'api.example.com'] });
    const why = `localhost:${other.port} is not on the allowed hosts (localhost:${listed.port}, api.example.com)`;

    const plain = seen(await run(curl(`http://localhost:${other.port}/`)));
    expect(plain).toMatch(/^exit code 0/); // curl prints the 403 body and exits 0
    expect(plain).toContain(`[stdout]\nagent-harness sandbox: ${why}`);

    const tunnel = seen(await run(curl(`http://localhost:${other.port}/`, '--proxytunnel')));
    expect(tunnel).toMatch(/^exit code 56/);
    expect(tunnel).toContain('CONNECT tunnel failed, response 403');
    expect(tunnel).toContain(`agent-harness sandbox: refused ${why}`);
    expect(other.seen).toEqual([]);
  });

  it('a direct connection that bypasses the proxy fails: there is no network', async () => {
    const server = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`localhost:${server.port}`] });
    const direct = seen(await run(curl(`http://127.0.0.1:${server.port}/`, '--noproxy', '*')));
    expect(direct).toMatch(/^exit code 7/);
    expect(direct).toContain(`Failed to connect to 127.0.0.1 port ${server.port}`);
    expect(server.seen).toEqual([]);
    // The same request without a sandbox reaches it: the test can fail.
    expect(seen(await shell('none')(curl(`http://127.0.0.1:${server.port}/`, '--noproxy', '*')))).toContain('reached');
  });

  it('matches *. wildcards (names under it, not the bare name) and ports', async () => {
    const server = await testServer();
    const other = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`*.localhost:${server.port}`] });
    expect(seen(await run(curl(`http://api.localhost:${server.port}/a`)))).toContain(
      `reached api.localhost:${server.port} /a`,
    );
    expect(seen(await run(curl(`http://deep.api.LOCALHOST:${server.port}/b`, '--proxytunnel')))).toContain(
      `reached deep.api.LOCALHOST:${server.port} /b`,
    );
    expect(seen(await run(curl(`http://localhost:${server.port}/c`)))).toContain(
      `localhost:${server.port} is not on the allowed hosts`,
    );
    expect(seen(await run(curl(`http://api.localhost:${other.port}/d`)))).toContain(
      `api.localhost:${other.port} is not on the allowed hosts`,
    );
    expect(server.seen).toEqual([`api.localhost:${server.port} /a`, `deep.api.LOCALHOST:${server.port} /b`]);
    expect(other.seen).toEqual([]);

    const anyPort = shell('bwrap', { allowedHosts: ['*.localhost'] });
    expect(seen(await anyPort(curl(`http://x.localhost:${other.port}/e`)))).toContain('reached');
  });

  it('a listed name does not let an IP address through, in any of its spellings', async () => {
    const server = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`localhost:${server.port}`, '*.localhost'] });
    // Raw request lines, as a hostile program would write them (curl would tidy some). With
    // shut-none socat keeps writing open after printf ends, as an HTTP client does until answered.
    const hosts = ['127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '[::1]'];
    for (const host of hosts) {
      const request = `GET http://${host}:${server.port}/ HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n`;
      const result = seen(await run(['sh', '-c', `printf '${request}' | socat -t 5 - TCP:127.0.0.1:3128,shut-none`]));
      expect(result, host).toContain('HTTP/1.1 403');
      expect(result, host).toContain('is not on the allowed hosts');
    }
    const connect = seen(
      await run([
        'sh',
        '-c',
        `printf 'CONNECT 2130706433:${server.port} HTTP/1.1\\r\\n\\r\\n' | socat -t 5 - TCP:127.0.0.1:3128,shut-none`,
      ]),
    );
    expect(connect).toContain('HTTP/1.1 403 Forbidden');
    expect(connect).toContain(`127.0.0.1:${server.port} is not on the allowed hosts`);
    expect(server.seen).toEqual([]);

    // Listed as an address, every spelling of it is that address.
    const byAddress = shell('bwrap', { allowedHosts: [`127.0.0.1:${server.port}`] });
    expect(seen(await byAddress(curl(`http://127.0.0.1:${server.port}/ip`)))).toContain('reached');
    const decimal = `GET http://2130706433:${server.port}/decimal HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n`;
    expect(
      seen(await byAddress(['sh', '-c', `printf '${decimal}' | socat -t 5 - TCP:127.0.0.1:3128,shut-none`])),
    ).toContain(`reached 127.0.0.1:${server.port} /decimal`);
  });

  it('runs one proxy per call, on a socket in a folder of its own, gone with its connections when the call ends', async () => {
    const server = await testServer();
    const { shell } = sandboxFixture();
    const run = shell('bwrap', { allowedHosts: [`localhost:${server.port}`] });
    const before = proxyFolders();
    const call = run(curl(`http://localhost:${server.port}/hang`, '--proxytunnel'), 1000);
    expect(await eventually(() => server.open() === 1)).toBe(true);
    const during = proxyFolders().filter((name) => !before.includes(name));
    expect(during).toHaveLength(1);
    expect(readdirSync(join(tmpdir(), during[0] as string))).toEqual(['proxy.sock']);
    const result = await call;
    expect(result.error).toMatch(/^command timed out after 1000 ms/);
    expect(server.seen).toEqual([`localhost:${server.port} /hang`]);
    expect(proxyFolders()).toEqual(before);
    expect(await eventually(() => server.open() === 0)).toBe(true);
  });

  it("tells the model the truth about the network in the shell tool's description", () => {
    const { shell } = sandboxFixture();
    expect(shell('bwrap', { allowedHosts: ['api.example.com', '*.npmjs.org'] }).description).toContain(
      'there is no network but an HTTP(S) proxy (HTTP_PROXY, HTTPS_PROXY are set; use them) that reaches only these hosts: api.example.com, *.npmjs.org',
    );
    expect(shell('bwrap').description).toContain('and there is no network.');
    expect(shell('bwrap', { allowedHosts: ['*'] }).description).toContain("and it has the host's network.");
  });

  it('a program that does not exist is "failed", as without the proxy', async () => {
    const { shell } = sandboxFixture();
    const result = await shell('bwrap', { allowedHosts: ['api.example.com'] })(['no-such-program-xyz']);
    expect(result.error).toBe('could not run "no-such-program-xyz": No such file or directory');
  });
});
