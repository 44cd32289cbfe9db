import { HarnessError } from '../core/errors.js';

const SYNONYMS: Readonly<Record<string, string>> = {
  maxtokens: 'maxTotalTokens',
  maxcostusd: 'maxCost',
  timeoutms: 'maxWallClockMs',
  maxtimems: 'maxWallClockMs',
};

const normalise = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/** Edits (insert, delete, replace one character) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(replace, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known key `key` is a typo of (one edit away, two for longer keys), if any. */
function typoOf(key: string, known: readonly string[]): string | undefined {
  const typed = normalise(key);
  return known.find((candidate) => {
    const meant = normalise(candidate);
    return editDistance(typed, meant) <= (meant.length > 6 ? 2 : 1);
  });
}

/**
 * Refuses option keys that look like a known key spelled another way (`max_turns`,
 * `maxTokens`, `maxTurn`): silently dropping them would leave a limit unenforced. Other keys
 * are ignored.
 */
export function refuseMisspelledKeys(options: object, known: readonly string[], where: string): void {
  const byNormal = new Map(known.map((key) => [normalise(key), key]));
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const meant = byNormal.get(normalise(key)) ?? SYNONYMS[normalise(key)] ?? typoOf(key, known);
    if (meant !== undefined && known.includes(meant)) {
      throw new HarnessError('invalid_config', `unknown ${where} option '${key}': did you mean '${meant}'?`);
    }
  }
}
