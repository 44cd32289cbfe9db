/** The loopback port, inside the sandbox, that forwards to the allow-list proxy (its own network namespace: always free). */
export const PROXY_PORT = 3128;

/** Where the proxy's Unix socket is bound inside the sandbox (its `/tmp` is a private tmpfs). */
export const PROXY_SOCKET_INSIDE = '/tmp/.agent-harness-proxy.sock';

/** `$0` of the shell that starts the forwarder: its own failures are told by it. */
const BRIDGE_NAME = 'agent-harness-sandbox';

/**
 * Starts `socat` (`$1`) in the background, forwarding 127.0.0.1:3128 to the proxy's socket,
 * waits until it listens (its line in `/proc/net/tcp`, state 0A, read with shell builtins only),
 * then becomes the command. When the command exits, bubblewrap ends the PID namespace and the
 * forwarder with it. 0100007F:0C38 is 127.0.0.1:3128 as `/proc/net/tcp` writes it.
 */
const SCRIPT = `f=$1; shift
"$f" TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_SOCKET_INSIDE} </dev/null >/dev/null 2>&1 &
p=$!
up() { while read -r _ a _ s _; do [ "$a" = 0100007F:${PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} ] && [ "$s" = 0A ] && return 0; done </proc/net/tcp; return 1; }
until up; do kill -0 "$p" 2>/dev/null || { echo "${BRIDGE_NAME}: the proxy forwarder ($f) did not start" >&2; exit 126; }; done
exec "$@"`;

/** How the bridge says it could not start the command: `…: N: exec: NAME: why`, or its own line. */
const BRIDGE_FAILED = new RegExp(`^${BRIDGE_NAME}: (?:[0-9]+: exec: [^\\n]*: )?([^\\n]*)\\n?$`);

/** `argv`, run after the forwarder (`socat`, an absolute path) listens inside the sandbox. */
export function bridgedArgv(socat: string, argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', SCRIPT, BRIDGE_NAME, socat, ...argv];
}

/** Why the bridge never ran the command, from its stderr and exit code; undefined when it did. */
export function bridgeFailure(exitCode: number | null, stdout: string, stderr: string): string | undefined {
  if ((exitCode !== 126 && exitCode !== 127) || stdout !== '') return undefined;
  const why = BRIDGE_FAILED.exec(stderr)?.[1];
  return why === 'not found' ? 'No such file or directory' : why;
}

const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

/** `env` with every proxy variable pointing at the forwarder, and `NO_PROXY` cleared. */
export function withProxyEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const { NO_PROXY: _upper, no_proxy: _lower, ...rest } = env;
  return {
    ...rest,
    HTTP_PROXY: PROXY_URL,
    HTTPS_PROXY: PROXY_URL,
    ALL_PROXY: PROXY_URL,
    http_proxy: PROXY_URL,
    https_proxy: PROXY_URL,
    all_proxy: PROXY_URL,
  };
}
