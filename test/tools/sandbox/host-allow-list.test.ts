import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/core/errors.js';
import { canonicalHost, HostAllowList } from '../../../src/tools/workspace/host-allow-list.js';
import { Sandbox } from '../../../src/tools/workspace/index.js';

/** The message `HostAllowList.parse` threw for `entries`. */
function refusal(entries: string[]): string {
  try {
    HostAllowList.parse(entries);
  } catch (error) {
    if (HarnessError.isInstance(error) && error.reason === 'invalid_config') return error.message;
    throw error;
  }
  throw new Error(`${JSON.stringify(entries)} was accepted`);
}

describe('allowedHosts entries', () => {
  it('refuse hostile or malformed entries with invalid_config, naming the entry', () => {
    const cases: [string[], string][] = [
      [[''], 'allowedHosts entry "": give a host name'],
      [['*', 'api.example.com'], `allowedHosts entry "*": '*' (the whole network) must be the only entry`],
      [['https://api.example.com'], 'allowedHosts entry "https://api.example.com": give host, *.suffix or host:port'],
      [['api.example.com/v1'], 'allowedHosts entry "api.example.com/v1": "api.example.com/v1" is not a host name'],
      [['user@api.example.com'], 'allowedHosts entry "user@api.example.com": "user@api.example.com" is not a host'],
      [[' api.example.com'], 'allowedHosts entry " api.example.com": " api.example.com" is not a host'],
      [['api.example.com:0'], 'allowedHosts entry "api.example.com:0": port 0 is not in 1-65535'],
      [['api.example.com:65536'], 'port 65536 is not in 1-65535'],
      [['api.example.com:80:81'], 'give host, *.suffix or host:port'],
      [['a.*.example.com'], "a wildcard is only a leading '*.'"],
      [['*.'], 'allowedHosts entry "*.": "" is not a host name or IP address'],
      [['*.0.0.1'], "'*.' goes before a name, not an IP address"],
      [['0x7f.1'], 'allowedHosts entry "0x7f.1": write the address as 127.0.0.1'],
      [['2130706433'], 'write the address as 127.0.0.1'],
      [['[0:0::1]'], 'write the address as [::1]'],
      [['999.1.1.1'], 'is not a host name or IP address'],
      [['[::1'], 'give host, *.suffix or host:port'],
    ];
    for (const [entries, message] of cases) {
      expect(refusal(entries), entries.join(' ')).toContain(message);
    }
  });

  it('are checked when the sandbox is made, whatever the mode', () => {
    expect(() => Sandbox.create({ mode: 'none', allowedHosts: 'api.example.com' as never })).toThrow(
      'allowedHosts must be an array of hosts, got "api.example.com"',
    );
    expect(() => Sandbox.create({ mode: 'auto', bwrapPath: '/nonexistent/bwrap', allowedHosts: ['http://x'] })).toThrow(
      'allowedHosts entry "http://x"',
    );
  });

  it('match names in any case, *. suffixes below the name only, ports when given', () => {
    const list = HostAllowList.parse(['API.example.com', '*.npmjs.org', 'localhost:8080', '10.0.0.5', '[::1]:9000']);
    expect(list.allows('api.example.com', 443)).toBe(true);
    expect(list.allows('api.example.com', 8443)).toBe(true);
    expect(list.allows('example.com', 443)).toBe(false);
    expect(list.allows('registry.npmjs.org', 443)).toBe(true);
    expect(list.allows('a.b.npmjs.org', 80)).toBe(true);
    expect(list.allows('npmjs.org', 443)).toBe(false);
    expect(list.allows('evilnpmjs.org', 443)).toBe(false);
    expect(list.allows('localhost', 8080)).toBe(true);
    expect(list.allows('localhost', 8081)).toBe(false);
    expect(list.allows('10.0.0.5', 22)).toBe(true);
    expect(list.allows('[::1]', 9000)).toBe(true);
    expect(list.allows('[::1]', 9001)).toBe(false);
    expect(list.allows('127.0.0.1', 8080)).toBe(false);
  });

  it('read every spelling of an address as one canonical host, and no host from URL tricks', () => {
    for (const spelling of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7F000001', '127.0.0.1.']) {
      expect(canonicalHost(spelling), spelling).toBe('127.0.0.1');
    }
    expect(canonicalHost('[::FFFF:127.0.0.1]')).toBe('[::ffff:7f00:1]');
    expect(canonicalHost('Registry.NPMJS.org.')).toBe('registry.npmjs.org');
    for (const trick of ['evil.com@good.com', 'good.com/x', 'good.com#x', '127%2e0.0.1', 'a b', '', '.', '999.0.0.1']) {
      expect(canonicalHost(trick), trick).toBeUndefined();
    }
    // A wildcard never covers addresses, whatever the suffix looks like.
    expect(refusal(['*.1'])).toBe('allowedHosts entry "*.1": \'*.\' goes before a name, not an IP address');
  });
});
