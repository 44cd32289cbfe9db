import { isIPv4 } from 'node:net';
import { HarnessError } from '../../core/errors.js';

/** One entry of a {@link HostAllowList}: a host (or a `*.` suffix) and, optionally, one port. */
interface HostEntry {
  /** Canonical: lower case, IPv4 dotted, IPv6 in brackets; for a wildcard the suffix after `*.`. */
  readonly host: string;
  readonly wildcard: boolean;
  /** Any port when undefined. */
  readonly port: number | undefined;
}

/** `host` or `host:port`, the host possibly a bracketed IPv6 address. */
const AUTHORITY = /^(\[[^\]]*\]|[^:[\]]*)(?::([0-9]{1,5}))?$/;

/** The characters a host may hold before the URL parser reads it (no `%`, `@`, `/`, spaces). */
const HOST_TEXT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)$/;

/**
 * A host as a URL parser (and so `getaddrinfo`) reads it: lower case, an IPv4 address in any of
 * its forms (`2130706433`, `0x7f.1`, `0177.0.0.1`) as dotted decimal, IPv6 in brackets and
 * compressed, one trailing dot dropped. Undefined when `text` is no host. Matching and
 * connecting both use this form, so no spelling of an address can match one entry and reach
 * another.
 */
export function canonicalHost(text: string): string | undefined {
  if (!HOST_TEXT.test(text)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host === '' || host.endsWith('.') ? undefined : host;
}

/** Whether a canonical host is an IP address (IPv4 dotted, or IPv6 in brackets). */
export function isIpHost(host: string): boolean {
  return host.startsWith('[') || isIPv4(host);
}

/** Whether a canonical host is `localhost` or a name under it (RFC 6761: always loopback). */
export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** A port in 1–65535 from its decimal text, or undefined. */
export function portNumber(text: string): number | undefined {
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : undefined;
}

function refuse(entry: string, why: string): never {
  throw new HarnessError('invalid_config', `allowedHosts entry ${JSON.stringify(entry)}: ${why}`);
}

function parseEntry(entry: string): HostEntry {
  if (typeof entry !== 'string' || entry === '') refuse(String(entry), 'give a host name, e.g. api.example.com');
  if (entry === '*') refuse(entry, "'*' (the whole network) must be the only entry");
  const parts = AUTHORITY.exec(entry);
  if (parts === null) {
    refuse(
      entry,
      'give host, *.suffix or host:port, without a scheme, path, user or spaces (e.g. api.example.com:443)',
    );
  }
  const [, hostText = '', portText] = parts;
  const port = portText === undefined ? undefined : portNumber(portText);
  if (portText !== undefined && port === undefined) refuse(entry, `port ${portText} is not in 1-65535`);
  const wildcard = hostText.startsWith('*.');
  const bare = wildcard ? hostText.slice(2) : hostText;
  if (bare.includes('*')) refuse(entry, "a wildcard is only a leading '*.' (e.g. *.npmjs.org)");
  const host = canonicalHost(bare);
  if (host === undefined) refuse(entry, `${JSON.stringify(bare)} is not a host name or IP address`);
  if (isIpHost(host)) {
    if (wildcard) refuse(entry, "'*.' goes before a name, not an IP address");
    if (host !== bare.toLowerCase()) refuse(entry, `write the address as ${host}`);
  }
  return { host, wildcard, port };
}

/**
 * The hosts a sandboxed command may reach through the proxy: exact names or addresses
 * (`api.example.com`, `127.0.0.1`, `[::1]`), `*.` suffixes (`*.npmjs.org`: any name under it, not
 * `npmjs.org` itself, never an IP address), each with an optional port (`localhost:8080`; without
 * one, any port). Names match case-insensitively; IP addresses only when listed as addresses.
 */
export class HostAllowList {
  /** The entries as given. */
  readonly entries: readonly string[];
  private readonly parsed: readonly HostEntry[];

  private constructor(entries: readonly string[], parsed: readonly HostEntry[]) {
    this.entries = entries;
    this.parsed = parsed;
  }

  /** The list of `entries`; a bad entry throws `invalid_config` naming it. */
  static parse(entries: readonly string[]): HostAllowList {
    return new HostAllowList([...entries], entries.map(parseEntry));
  }

  /** Whether `host` (canonical, see {@link canonicalHost}) on `port` is on the list. */
  allows(host: string, port: number): boolean {
    const ip = isIpHost(host);
    return this.parsed.some(
      (entry) =>
        (entry.port === undefined || entry.port === port) &&
        (entry.wildcard ? !ip && host.endsWith(`.${entry.host}`) : host === entry.host),
    );
  }
}
