import type { PolicyContext } from '../core/approval-types.js';
import type { LazyAbort } from '../core/lazy-abort.js';
import type { Session } from '../session/session.js';

/**
 * What a policy function is told about the call's session: its id, the turn that asked, the
 * session's earlier decisions (a copy: a policy may keep it), and the run's abort signal. Made
 * once per turn, and only when a policy function is called.
 */
export function policyContext(session: Session, abort: LazyAbort): PolicyContext {
  return Object.freeze({
    sessionId: session.id,
    cwd: session.config.cwd,
    turn: session.turnCount,
    decisions: Object.freeze(session.decisionHistory.slice()),
    signal: abort.signal,
  });
}
