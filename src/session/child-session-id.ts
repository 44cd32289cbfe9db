import { createHash } from 'node:crypto';

const MAX_ID = 128;

/** A piece of an id with only the characters a session id allows (others become `_`). */
function idSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The session id of the child agent that one call runs: the parent's id, the turn and the call
 * id (`<parent>.t<turn>.<callId>`), so a resumed parent finds the child of a call again. Made
 * of session-id characters; a longer one than a store takes (128) is shortened to a hash of it.
 */
export function childSessionId(parentSessionId: string | undefined, turn: number, callId: string): string {
  const id = `${idSafe(parentSessionId ?? 'agent')}.t${turn}.${idSafe(callId)}`;
  if (id.length <= MAX_ID && !id.startsWith('.')) return id;
  return `child-${createHash('sha256').update(id).digest('hex')}`;
}
