/** The wire shapes of the agent's Restate handlers (JSON over Restate's ingress). */

import type { MessageContent } from '../core/content-parts.js';

/** The default name of the agent's virtual object on Restate. */
export const DEFAULT_SERVICE = 'agent';

/** Input of `run`. */
export interface RunRequest {
  /**
   * The new user message: text, or content parts with images and files (SPEC §15); `""`
   * finishes the session's interrupted run (SPEC §8).
   */
  readonly task: MessageContent;
}

/** Output of `run`: how the run ended. */
export interface RunOutcome {
  /** The session (the virtual object's key). */
  readonly sessionId: string;
  /** `done` with a final answer; `error` otherwise (`reason` says why: a budget, `aborted`, …). */
  readonly status: 'done' | 'error';
  /** The final answer, when `done`. */
  readonly response?: string;
  /** The stop reason, when `error` (`aborted` for a cancelled run). */
  readonly reason?: string;
  /** What went wrong, when `error`. */
  readonly message?: string;
  /** Entries in the session's journal once the run ended. */
  readonly entries: number;
}

/** Input of `decide`: approve or deny one call that waits. */
export interface Decision {
  /** The waiting call. */
  readonly callId: string;
  /** True runs it; false denies it. */
  readonly approve: boolean;
  /** Why it was denied (the model reads `Error: denied: <reason>`). */
  readonly reason?: string;
}

/** Output of `status`. */
export interface RunStatus {
  /** The invocation id of the run in progress, or null. */
  readonly running: string | null;
  /** Calls waiting for a decision. */
  readonly waiting: readonly string[];
}
