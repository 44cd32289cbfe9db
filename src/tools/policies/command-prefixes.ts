import type { Permission, PolicyAnswer, PolicyFunction } from '../../core/approval-types.js';
import type { ToolCall } from '../../core/messages.js';

/** Command prefixes per permission, for {@link commandPrefixes}. */
export interface CommandPrefixOptions {
  /** Commands that run without asking (`git status`, `ls`). */
  readonly allow?: readonly string[];
  /** Commands that ask first. */
  readonly ask?: readonly string[];
  /** Commands that are refused (`rm`, `sudo`). */
  readonly deny?: readonly string[];
  /** What a command no prefix matches gets. Default `ask`. */
  readonly otherwise?: Permission;
}

/**
 * What makes a prefix match unsafe: a second command (`;`, `&`, `&&`, `||`, a newline), a pipe,
 * a substitution (backticks, `$(`), a redirection (`>`, `<`). `git status; rm -rf ~` starts with
 * `git status`, and must not run because of it.
 */
const UNSAFE = /[;&|`\n\r<>]|\$\(/;
/** Where a command line splits into the commands it runs, for the deny check. */
const SEPARATORS = /[;&|`\n\r<>()]|\$\(/;

const words = (text: string): string[] =>
  text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');

/** Whether the command's words begin with the prefix's words (`git status` matches `git status -s`, not `git statusx`). */
function startsWith(command: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > command.length) return false;
  return prefix.every((word, index) => command[index] === word);
}

/**
 * A policy for `shell` calls by the command's leading words. `deny` beats `ask` beats `allow`.
 * The command is read conservatively: one that chains, pipes, substitutes or redirects
 * (`;`, `&&`, `|`, backticks, `$(`, `>`) never matches an `allow` prefix — it asks, unless any
 * part of it matches a `deny` prefix, which denies. A call without a string `command` asks.
 *
 * @example permissions: { shell: commandPrefixes({ allow: ['git status', 'ls'], deny: ['rm', 'sudo'] }) }
 */
export function commandPrefixes(options: CommandPrefixOptions): PolicyFunction {
  const deny = (options.deny ?? []).map(words);
  const ask = (options.ask ?? []).map(words);
  const allow = (options.allow ?? []).map(words);
  const otherwise = options.otherwise ?? 'ask';
  return function commandPrefixes(call: ToolCall): PolicyAnswer {
    const command = typeof call.arguments === 'object' ? call.arguments.command : undefined;
    if (typeof command !== 'string') return 'ask';
    const parts = command.split(SEPARATORS).map(words);
    const denied = deny.find((prefix) => parts.some((part) => startsWith(part, prefix)));
    if (denied !== undefined) return { deny: `the command runs '${denied.join(' ')}', which the shell policy denies` };
    if (UNSAFE.test(command)) return 'ask';
    const whole = words(command);
    if (ask.some((prefix) => startsWith(whole, prefix))) return 'ask';
    if (allow.some((prefix) => startsWith(whole, prefix))) return 'allow';
    return otherwise;
  };
}
