import { printable } from './printable.js';

/** The prefix of every namespace this library logs under (`agent-harness:tools`). */
export const DEBUG_NAMESPACE = 'agent-harness';

/**
 * Whether `DEBUG` turns on `namespace`, as the `debug` package reads it: a list separated by
 * commas or spaces of names, each either exact (`agent-harness:tools`), a prefix ending in `*`
 * (`agent-harness:*`, `*`), or the bare `agent-harness` for all of this library's namespaces.
 */
export function debugEnabled(namespace: string, setting: string | undefined = process.env.DEBUG): boolean {
  if (setting === undefined || setting === '') return false;
  return setting
    .split(/[\s,]+/)
    .some(
      (pattern) =>
        pattern === namespace ||
        (pattern === DEBUG_NAMESPACE && namespace.startsWith(`${DEBUG_NAMESPACE}:`)) ||
        (pattern.endsWith('*') && namespace.startsWith(pattern.slice(0, -1))),
    );
}

/**
 * Writes `message` to stderr as `<namespace> <message>` when `DEBUG` turns the namespace on
 * (see {@link debugEnabled}); nothing otherwise. The message is made {@link printable}: it may
 * quote a tool's or a server's text.
 */
export function debugLog(namespace: string, message: string): void {
  if (!debugEnabled(namespace)) return;
  process.stderr.write(`${namespace} ${printable(message)}\n`);
}
