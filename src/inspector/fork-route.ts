import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HarnessError, type HarnessErrorReason } from '../core/errors.js';

/** A session made by the inspector's "fork here". */
export interface ForkedSession {
  /** The new session's id in the store. */
  readonly id: string;
  /** Where the new session is shown, when the caller serves it too (an inspector page of its own). */
  readonly url?: string;
}

/**
 * Makes a new session of the first `at` entries of the inspected one (`session.fork({ at })`)
 * and says where it is. Throws a `HarnessError` (`invalid_argument`, `session_not_found`, …)
 * for the page to show.
 */
export type ForkHandler = (at: number) => Promise<ForkedSession>;

/** The header carrying the page's token on `POST /api/fork`. */
export const FORK_TOKEN_HEADER = 'x-agent-harness-token';

/** The largest request body `POST /api/fork` reads (`{"at": N}` is a few bytes). */
const MAX_BODY = 1024;

const STATUS: Partial<Record<HarnessErrorReason, number>> = {
  invalid_argument: 400,
  session_not_found: 404,
  session_locked: 409,
};

/** A new random token for the page (sent in the snapshot, which other origins cannot read). */
export function newForkToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Whether a request comes from this machine (the socket's peer is a loopback address). */
export function fromLoopback(request: IncomingMessage): boolean {
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(response: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function refuse(
  response: ServerResponse,
  headers: Record<string, string>,
  status: number,
  reason: string,
  message: string,
): void {
  reply(response, status, headers, { error: { reason, message } });
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY) return void chunks.push(chunk);
      // Too big: answered at once; the rest is read and dropped, and the connection closed after.
      request.off('data', take);
      request.resume();
      resolve(undefined);
    };
    request.on('data', take);
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** `at` of a `{"at": N}` body: a whole number of entries, or a message saying what is wrong. */
function parseAt(body: string): number | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body must be JSON: {"at": N}';
  }
  const at = (parsed as { at?: unknown } | null)?.at;
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) {
    return `"at" must be a whole number of entries (0 or more), got ${JSON.stringify(at) ?? 'nothing'}`;
  }
  return at;
}

/** What `POST /api/fork` checks before it forks. */
export interface ForkGuard {
  /** The token the page was given. */
  readonly token: string;
  /** Whether the request's `Origin` is the server itself. */
  readonly sameOrigin: (origin: string | undefined) => boolean;
}

/**
 * `POST /api/fork` with `{"at": N}`: forks the inspected session and answers `{id, at, url?}`.
 * Served only to this machine (loopback peer), to a page of this server's origin (an `Origin`
 * header is required) that shows the token of its snapshot in {@link FORK_TOKEN_HEADER}, with
 * `content-type: application/json` (so another site's page cannot send it without a CORS
 * preflight, which this server never allows). Errors are `{error: {reason, message}}`.
 */
export async function handleFork(
  request: IncomingMessage,
  response: ServerResponse,
  fork: ForkHandler,
  guard: ForkGuard,
  headers: Record<string, string>,
): Promise<void> {
  if (request.method !== 'POST') {
    return refuse(response, { ...headers, allow: 'POST' }, 405, 'invalid_argument', 'fork is POST /api/fork');
  }
  if (!fromLoopback(request)) {
    return refuse(response, headers, 403, 'forbidden', 'fork is served to this machine only');
  }
  const origin = request.headers.origin;
  if (
    origin === undefined ||
    !guard.sameOrigin(origin) ||
    !sameToken(request.headers[FORK_TOKEN_HEADER], guard.token)
  ) {
    return refuse(response, headers, 403, 'forbidden', "fork needs this page's origin and token");
  }
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    return refuse(response, headers, 415, 'invalid_argument', 'fork takes application/json: {"at": N}');
  }
  const body = await readBody(request);
  if (body === undefined) {
    return refuse(
      response,
      { ...headers, connection: 'close' },
      413,
      'invalid_argument',
      `fork takes at most ${MAX_BODY} bytes`,
    );
  }
  const at = parseAt(body);
  if (typeof at === 'string') return refuse(response, headers, 400, 'invalid_argument', at);
  try {
    const forked = await fork(at);
    reply(response, 200, headers, { id: forked.id, at, ...(forked.url === undefined ? {} : { url: forked.url }) });
  } catch (error) {
    if (HarnessError.isInstance(error)) {
      return refuse(response, headers, STATUS[error.reason] ?? 500, error.reason, error.message);
    }
    refuse(response, headers, 500, 'internal_error', error instanceof Error ? error.message : String(error));
  }
}
