import { HarnessError } from '../core/errors.js';
import { excerpt, printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';

async function admin<T>(adminUrl: string, path: string, body: unknown): Promise<T> {
  const url = adminUrl.replace(/\/$/, '');
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new HarnessError(
      'restate_error',
      `cannot reach Restate's admin API at ${redactPassword(url)}: ${printableLine(error instanceof Error ? error.message : String(error))}`,
      { cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new HarnessError(
      'restate_error',
      `Restate's admin API answered ${response.status} to ${path}: ${excerpt(printableLine(text), 500)}`,
    );
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/**
 * Registers `uri` (a worker, or the load balancer in front of several) with Restate's admin API
 * at `adminUrl`, so that Restate sends it the agent's invocations. Registering the same URI
 * again is harmless; `force` replaces a registration whose services changed.
 */
export async function registerDeployment(
  adminUrl: string,
  uri: string,
  options: { readonly force?: boolean } = {},
): Promise<void> {
  await admin(adminUrl, '/deployments', { uri, force: options.force ?? false });
}

/** Where an invocation stands, from Restate's admin API. */
export interface InvocationStatus {
  /** `pending`, `scheduled`, `ready`, `running`, `suspended`, `backing-off`, `paused`, `completed`. */
  readonly status: string;
  /** How many times it was executed. */
  readonly attempts: number;
  /**
   * Why its last execution failed, while it is retried: a divergence (a worker whose code changed
   * under a recorded run) says so, naming the session and the step.
   */
  readonly lastFailure?: string;
}

/** The status of invocation `invocationId` (as `submitRun` returned it), or undefined if unknown. */
export async function invocationStatus(adminUrl: string, invocationId: string): Promise<InvocationStatus | undefined> {
  if (!/^inv_[0-9A-Za-z]+$/.test(invocationId)) {
    throw new HarnessError('invalid_argument', `not a Restate invocation id: '${printableLine(invocationId)}'`);
  }
  const result = await admin<{ rows: { status: string; retry_count: number | null; last_failure: string | null }[] }>(
    adminUrl,
    '/query',
    { query: `SELECT status, retry_count, last_failure FROM sys_invocation WHERE id = '${invocationId}'` },
  );
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    status: row.status,
    attempts: row.retry_count ?? 0,
    ...(row.last_failure === null ? {} : { lastFailure: printableLine(row.last_failure) }),
  };
}
