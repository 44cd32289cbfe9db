import { HarnessError } from '../core/errors.js';
import { HostAllowList } from '../tools/workspace/host-allow-list.js';
import { UsageError } from './usage-error.js';

/** Help of `--allow-net`, for `run` and `worker`. */
export const ALLOW_NET_HELP = `  --allow-net HOST the bubblewrap sandbox's shell commands may reach HOST through a proxy
                   (repeatable): api.example.com, *.npmjs.org (names under it), localhost:8080
                   (one port; without one, any); '*' alone for the whole network. Needs socat`;

/**
 * The hosts of `--allow-net` (repeatable), checked: a bad entry is a usage error naming it, and
 * `'*'` (the whole network) must come alone. Empty without the flag: no network.
 */
export function allowNetHosts(values: readonly string[] | undefined): readonly string[] {
  const hosts = values ?? [];
  if (hosts.includes('*')) {
    if (hosts.length > 1)
      throw new UsageError(`--allow-net '*' (the whole network) goes alone, got ${hosts.join(', ')}`);
    return hosts;
  }
  try {
    HostAllowList.parse(hosts);
  } catch (error) {
    if (HarnessError.isInstance(error)) throw new UsageError(`--allow-net: ${error.message}`);
    throw error;
  }
  return hosts;
}
