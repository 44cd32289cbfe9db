import { UsageError } from './usage-error.js';

/**
 * `--flag -1` as `--flag=-1` for the flags that take a number, so that a negative value reaches
 * our own check and message instead of `parseArgs`' "argument is ambiguous". `flags` are the
 * long names without dashes.
 */
export function joinNegativeValues(argv: readonly string[], flags: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (arg.startsWith('--') && flags.includes(arg.slice(2)) && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** A plain positive decimal integer (`12`; not `1e3`, `0x10`, `+5`, `1.0`, ` 5`), or undefined when absent. */
export function positiveInteger(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value <= 0 || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} must be a positive whole number, got '${text}'`);
  }
  return value;
}

/** A plain positive decimal number (`0.05`, `.5`, `3`; not `1e3`, `0x10`, `Infinity`), or undefined when absent. */
export function positiveDecimal(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || !(value > 0) || !Number.isFinite(value)) {
    throw new UsageError(`${flag} must be a positive decimal number such as 0.05, got '${text}'`);
  }
  return value;
}
