import { HarnessError } from '../core/errors.js';

/** The journal format this library writes. */
export const JOURNAL_VERSION = 6;

/**
 * Versions this library reads. Old versions stay here forever. Version 2 added the write-ahead
 * `tool_started` entry and journals each tool result as its call settles; version 3 added the
 * approval entries (`approval_request`, `approval_decision`) and the stop reason `suspended`;
 * version 4 added the `compaction` entry and the stop reason `context_overflow`, and sub-agents
 * and handoffs (`tool_started.childSessionId`, `tool_result.usage`, the `handoff` entry); version 5
 * added reasoning parts (`reasoning` on `assistant_message` and `agent_end`) and the optional
 * cached, cache-write and reasoning token counts of usage; version 6 added the rule that asked or
 * decided (`rule` on `approval_request` and `approval_decision`, policy functions' verdicts as
 * `approval_decision` entries), an approval's edited `arguments`, the `model_switch` entry and
 * the model that answered on `usage` (a fallback chain), and the `guardrail` entry (a
 * guardrail's verdict) with the stop reason `guardrail`, and the stop reason `mcp_error` (a tool
 * source's refresh that failed).
 */
export const READABLE_JOURNAL_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6];

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

/**
 * Checks a journal version as a store keeps it (the `journalVersion` meta, a string): digits are
 * the version; anything else is refused naming the text stored, not `NaN`.
 */
export function checkStoredJournalVersion(stored: string): number {
  return checkJournalVersion(/^[0-9]+$/.test(stored) ? Number(stored) : stored);
}
