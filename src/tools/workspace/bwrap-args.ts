import { PROXY_SOCKET_INSIDE } from './proxy-bridge.js';

/** A path to hide from the sandboxed command: an empty tmpfs over a folder, an empty file over a file. */
export interface HiddenPath {
  /** Absolute, real (symlinks resolved). */
  readonly path: string;
  readonly folder: boolean;
}

/** Everything {@link bwrapArgs} needs to lay out the sandbox of one command. */
export interface BwrapLayout {
  /** The only writable folder (absolute, real); the command starts there. */
  readonly cwd: string;
  /** Secrets and protected paths, covered after `cwd` is mounted (so they win inside it too). */
  readonly hidden: readonly HiddenPath[];
  /** An empty read-only regular file, bound over each hidden file. */
  readonly emptyFile: string;
  /**
   * `host`: share the host's network. `none`: a network namespace with only its own loopback.
   * `{ proxySocket }`: that too, with the allow-list proxy's Unix socket (a host path) bound
   * read-only at `PROXY_SOCKET_INSIDE`.
   */
  readonly network: 'host' | 'none' | { readonly proxySocket: string };
  /** Mount a private tmpfs over `/run` (its Unix sockets: Docker's, D-Bus's). False when there is none. */
  readonly coverRun: boolean;
}

/**
 * The `bwrap` arguments that run `argv` in the layout: `/` read-only, `cwd` writable, a private
 * `/tmp` (but for the top folder of a `cwd` inside it, read-only) and `/run`, fresh `/dev` and `/proc`, hidden secrets; new PID, IPC, UTS, cgroup and
 * (unless the network is the host's) network namespaces, a new session, no capabilities, and death with the
 * parent, so killing `bwrap` kills every process the command started.
 */
export function bwrapArgs(layout: BwrapLayout, argv: readonly string[]): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  if (layout.coverRun) args.push('--tmpfs', '/run');
  if (typeof layout.network === 'object') args.push('--ro-bind', layout.network.proxySocket, PROXY_SOCKET_INSIDE);
  // A workspace inside /tmp: its top folder there stays visible, read-only, as the rest of / is.
  const top = /^\/tmp\/[^/]+/.exec(layout.cwd)?.[0];
  if (top !== undefined && top !== layout.cwd) args.push('--ro-bind', top, top);
  args.push('--bind', layout.cwd, layout.cwd);
  for (const { path, folder } of layout.hidden) {
    args.push(...(folder ? ['--tmpfs', path] : ['--ro-bind', layout.emptyFile, path]));
  }
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (layout.network !== 'host') args.push('--unshare-net');
  args.push('--new-session', '--die-with-parent', '--cap-drop', 'ALL', '--chdir', layout.cwd, '--', ...argv);
  return args;
}
