import { HarnessError } from '../core/errors.js';

const SYNONYMS: Readonly<Record<string, string>> = {
  maxtokens: 'maxTotalTokens',
  maxcostusd: 'maxCost',
  timeoutms: 'maxWallClockMs',
  maxtimems: 'maxWallClockMs',
};

const normalise = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/**
 * Refuses option keys that look like a known key spelled another way (`max_turns`,
 * `maxTokens`): silently dropping them would leave a limit unenforced. Other keys are ignored.
 */
export function refuseMisspelledKeys(options: object, known: readonly string[], where: string): void {
  const byNormal = new Map(known.map((key) => [normalise(key), key]));
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const meant = byNormal.get(normalise(key)) ?? SYNONYMS[normalise(key)];
    if (meant !== undefined && known.includes(meant)) {
      throw new HarnessError('invalid_config', `unknown ${where} option '${key}': did you mean '${meant}'?`);
    }
  }
}
