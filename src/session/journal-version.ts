import { HarnessError } from '../core/errors.js';

/** The journal format this library writes. */
export const JOURNAL_VERSION = 1;

/** Versions this library reads. Old versions stay here forever. */
export const READABLE_JOURNAL_VERSIONS: readonly number[] = [1];

/** Throws `unsupported_journal_version` unless `version` is readable. */
export function checkJournalVersion(version: unknown): number {
  if (typeof version !== 'number' || !READABLE_JOURNAL_VERSIONS.includes(version)) {
    throw new HarnessError(
      'unsupported_journal_version',
      `journal version ${JSON.stringify(version)} is not supported; this library reads version ${READABLE_JOURNAL_VERSIONS.join(', ')}`,
    );
  }
  return version;
}
