import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server answers to one request. */
export interface FakeResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Written piece by piece, with a pause between pieces so they leave as separate packets. */
  readonly chunks?: readonly (string | Buffer)[];
  /** Destroy the connection after the chunks instead of ending the response. */
  readonly cut?: boolean;
  /** Keep the response open after the chunks (until the client goes away). */
  readonly hang?: boolean;
  /** Never answer at all, not even the headers (until the client goes away). */
  readonly silent?: boolean;
}

/** A request the fake server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

/** A running fake provider on 127.0.0.1. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Resolves when the client closed the connection of request `n` (0-based). */
  clientGone(n: number): Promise<void>;
  close(): Promise<void>;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

async function respond(res: ServerResponse, answer: FakeResponse): Promise<void> {
  if (answer.silent) return;
  const status = answer.status ?? 200;
  res.writeHead(status, {
    ...(status === 200 ? SSE_HEADERS : { 'content-type': 'application/json' }),
    ...answer.headers,
  });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  for (const chunk of answer.chunks ?? []) {
    if (res.destroyed) return;
    res.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (answer.cut) res.socket?.destroy();
  else if (!answer.hang) res.end();
}

/** Chooses the answer to the n-th request (0-based) from the request itself, as a real server would. */
export type FakeResponder = (request: ReceivedRequest, n: number) => FakeResponse;

/**
 * Starts a server that answers the n-th request with `answers[n]` (the last one repeats), or with
 * what `answers` returns for it.
 */
export async function startFakeServer(answers: readonly FakeResponse[] | FakeResponder): Promise<FakeServer> {
  const requests: ReceivedRequest[] = [];
  const gone: Promise<void>[] = [];
  const server = createServer((req, res) => {
    const n = requests.length;
    let release = (): void => {};
    gone[n] = new Promise((resolve) => {
      release = resolve;
    });
    res.on('close', () => release());
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      raw += piece;
    });
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(request);
      const answer =
        typeof answers === 'function'
          ? answers(request, n)
          : (answers[Math.min(n, answers.length - 1)] ?? { status: 500 });
      void respond(res, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clientGone: (n) => gone[n] ?? Promise.reject(new Error(`no request ${n}`)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a fixture file of recorded wire format, from `test/adapters/fixtures/`. */
export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

/**
 * Cuts bytes into pieces of `size` bytes (the last may be shorter): boundaries fall inside
 * JSON strings, multi-byte characters, `data:` prefixes and blank-line separators.
 */
export function splitBytes(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

/** A JSON error body as providers send with a failing status. */
export function errorAnswer(status: number, message: string, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers, chunks: [JSON.stringify({ error: { message, type: 'error', code: String(status) } })] };
}
