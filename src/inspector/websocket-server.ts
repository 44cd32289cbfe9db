import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** RFC 6455's fixed GUID for the accept hash. */
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Largest message accepted (inspection events carry snapshots; 16 MiB is plenty). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash('sha1')
    .update(key + GUID)
    .digest('base64');
}

/** A server-to-client frame (unmasked, final). */
export function encodeFrame(opcode: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 65_536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** One frame read from a client, or what is wrong with it. */
type Parsed =
  | {
      readonly kind: 'frame';
      readonly fin: boolean;
      readonly opcode: number;
      readonly payload: Buffer;
      readonly size: number;
    }
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Reads one client frame from the front of `buffer` (client frames must be masked). */
export function parseFrame(buffer: Buffer): Parsed {
  if (buffer.length < 2) return { kind: 'incomplete' };
  const first = buffer[0] ?? 0;
  const second = buffer[1] ?? 0;
  if ((second & 0x80) === 0) return { kind: 'invalid', reason: 'client frames must be masked' };
  let length = second & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return { kind: 'incomplete' };
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return { kind: 'incomplete' };
    const long = buffer.readBigUInt64BE(2);
    if (long > BigInt(MAX_MESSAGE_BYTES)) return { kind: 'invalid', reason: 'message too large' };
    length = Number(long);
    offset = 10;
  }
  if (length > MAX_MESSAGE_BYTES) return { kind: 'invalid', reason: 'message too large' };
  if (buffer.length < offset + 4 + length) return { kind: 'incomplete' };
  const mask = buffer.subarray(offset, offset + 4);
  const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + length));
  for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return { kind: 'frame', fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload, size: offset + 4 + length };
}

/** Thrown by a message handler to close the connection with a WebSocket close code. */
export class MessageRejected extends Error {
  constructor(
    /** The close code (RFC 6455 §7.4.1): 1007 bad data, 1008 policy, 1009 too big. */
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'MessageRejected';
  }
}

/** What {@link acceptWebSocket} calls. */
export interface WebSocketHandlers {
  /**
   * Each text message (fragmented messages reassembled). Throwing closes this connection only:
   * with the code of a {@link MessageRejected}, else 1011 (unexpected condition).
   */
  readonly onText: (text: string) => void;
  /** The server closed this connection, and why (for a log line; the text may quote the client). */
  readonly onRefused?: (code: number, why: string) => void;
}

/** Close reasons must fit a control frame (125 bytes, 2 of them the code). */
function closePayload(code: number, why: string): Buffer {
  let text = why;
  while (Buffer.byteLength(text) > 123) text = `${text.slice(0, Math.floor(text.length * 0.8))}…`;
  const reason = Buffer.from(text, 'utf8');
  const payload = Buffer.alloc(2 + reason.length);
  payload.writeUInt16BE(code);
  reason.copy(payload, 2);
  return payload;
}

/**
 * Completes a WebSocket handshake on an upgrade request and hands each text message to
 * `handlers.onText`. Answers pings and closes; binary messages are ignored. Each message is
 * handled on its own: whatever it makes the handler throw closes that connection, never the
 * server. Only what an inspection client needs: receive text, never send data.
 */
export function acceptWebSocket(request: IncomingMessage, socket: Duplex, handlers: WebSocketHandlers): void {
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string' || request.headers.upgrade?.toLowerCase() !== 'websocket') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`,
  );
  let buffer = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let fragmentOpcode: number = OPCODE.text;
  let closed = false;
  const close = (code: number, why = ''): void => {
    if (closed) return;
    closed = true;
    socket.end(encodeFrame(OPCODE.close, closePayload(code, why)));
  };
  const refuse = (code: number, why: string): void => {
    close(code, why);
    handlers.onRefused?.(code, why);
  };
  const deliver = (text: string): void => {
    try {
      handlers.onText(text);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      refuse(error instanceof MessageRejected ? error.code : 1011, why);
    }
  };
  const onFrame = (fin: boolean, opcode: number, payload: Buffer): void => {
    if (opcode === OPCODE.ping) {
      socket.write(encodeFrame(OPCODE.pong, payload));
      return;
    }
    if (opcode === OPCODE.close) {
      close(1000);
      return;
    }
    if (opcode === OPCODE.pong) return;
    if (opcode !== OPCODE.continuation) fragmentOpcode = opcode;
    fragments.push(payload);
    fragmentBytes += payload.length;
    if (fragmentBytes > MAX_MESSAGE_BYTES) {
      // the limit holds for a whole fragmented message, not only for one frame
      refuse(1009, `message larger than ${MAX_MESSAGE_BYTES} bytes`);
      return;
    }
    if (!fin) return;
    const message = Buffer.concat(fragments);
    fragments = [];
    fragmentBytes = 0;
    if (fragmentOpcode === OPCODE.text) deliver(message.toString('utf8'));
  };
  socket.on('data', (chunk: Buffer) => {
    if (closed) return;
    buffer = Buffer.concat([buffer, chunk]);
    while (!closed) {
      const parsed = parseFrame(buffer);
      if (parsed.kind === 'incomplete') return;
      if (parsed.kind === 'invalid') {
        refuse(parsed.reason === 'message too large' ? 1009 : 1002, parsed.reason);
        return;
      }
      buffer = buffer.subarray(parsed.size);
      onFrame(parsed.fin, parsed.opcode, parsed.payload);
    }
  });
  socket.on('error', () => socket.destroy());
}
