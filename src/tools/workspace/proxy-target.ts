import { lookup } from 'node:dns/promises';
import { BlockList } from 'node:net';
import { errorMessage } from '../../core/errors.js';
import { canonicalHost, type HostAllowList, isIpHost, isLocalhostName } from './host-allow-list.js';

/** Where a request may go: the address to connect to, or the status and reason of a refusal. */
export type ProxyTarget =
  | { readonly ok: true; readonly address: string; readonly port: number }
  | { readonly ok: false; readonly status: 400 | 403 | 502; readonly why: string };

/** Addresses a name from DNS must not lead to: loopback and unspecified, IPv4, IPv6 and mapped. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
LOOPBACK.addSubnet('::ffff:0.0.0.0', 104, 'ipv6');

/**
 * Decides where `hostText:port` may go. The host is read in its canonical form (see
 * `canonicalHost`), checked against the list, then resolved here, in the host process:
 * `localhost` and `*.localhost` are 127.0.0.1 without asking DNS, an IP address is itself, and a
 * name from DNS that leads to a loopback address is refused (list the address to allow it).
 */
export async function proxyTarget(list: HostAllowList, hostText: string, port: number): Promise<ProxyTarget> {
  const host = canonicalHost(hostText);
  if (host === undefined) return { ok: false, status: 400, why: `${JSON.stringify(hostText)} is not a host` };
  const named = `${host}:${port}`;
  if (!list.allows(host, port)) {
    return {
      ok: false,
      status: 403,
      why: `${named} is not on the allowed hosts (${list.entries.join(', ')})`,
    };
  }
  if (isIpHost(host)) return { ok: true, address: host.replace(/^\[|\]$/g, ''), port };
  if (isLocalhostName(host)) return { ok: true, address: '127.0.0.1', port };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    return {
      ok: false,
      status: 502,
      why: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`,
    };
  }
  const local = addresses.find(({ address, family }) => LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4'));
  if (local !== undefined) {
    return {
      ok: false,
      status: 403,
      why: `${host} resolves to ${local.address}, a loopback address; list the address itself to allow it`,
    };
  }
  const first = addresses[0];
  if (first === undefined) return { ok: false, status: 502, why: `cannot resolve ${host}: no address` };
  return { ok: true, address: first.address, port };
}
