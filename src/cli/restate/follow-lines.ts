import { contentText } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import { excerpt, printableLine } from '../../core/printable.js';

/**
 * One line (or none) for a journal entry, as `run --restate` follows a run from the store the
 * workers write. Everything quoted comes from the model or a tool: it passes the printable filter.
 */
export function followLine(entry: JournalEntry): string | undefined {
  switch (entry.type) {
    case 'assistant_message': {
      const text = entry.content.trim() === '' ? [] : [printableLine(entry.content)];
      const calls = (entry.toolCalls ?? []).map(
        (call) => `→ ${printableLine(call.name)} ${excerpt(printableLine(JSON.stringify(call.arguments)), 120)}`,
      );
      return [...text, ...calls].join('\n') || undefined;
    }
    case 'tool_result': {
      const text = contentText(entry.content);
      return `${text.startsWith('Error:') ? '✗' : '✓'} ${printableLine(entry.callId)}: ${excerpt(printableLine(text), 120)}`;
    }
    case 'approval_request':
      return `⏸ ${printableLine(entry.callId)} waits for approval`;
    case 'agent_end':
      return printableLine(entry.response);
    case 'agent_error':
      return `✗ stopped (${entry.reason})${entry.message === '' ? '' : `: ${printableLine(entry.message)}`}`;
    default:
      return undefined;
  }
}
