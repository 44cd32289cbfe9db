import { request } from 'node:http';
import type { Duplex } from 'node:stream';
import { encodeFrame } from '../../../src/inspector/websocket-server.js';

/** A masked client frame, as browsers and `ws` send them. */
export function clientFrame(opcode: number, text: string | Buffer, fin = true): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const header = encodeFrame(opcode, payload).subarray(0, payload.length < 126 ? 2 : payload.length < 65_536 ? 4 : 10);
  header[0] = (fin ? 0x80 : 0) | opcode;
  header[1] = (header[1] ?? 0) | 0x80;
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

/** A raw WebSocket client connection (Node 20 has no global WebSocket). */
export interface RawWebSocket {
  readonly socket: Duplex;
  /** Sends one text message in one frame. */
  sendText(text: string): void;
  /** The close code and reason of the server's close frame, once it sent one. */
  readonly closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket to `http://host:port` with a raw upgrade request; rejects when the upgrade is refused. */
export function openWebSocket(url: string, headers: Record<string, string> = {}): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (_response, socket) => {
      let buffer = Buffer.alloc(0);
      const closed = new Promise<{ code: number; reason: string }>((done) => {
        socket.on('data', (chunk: Buffer) => {
          buffer = Buffer.concat([buffer, chunk]);
          // Server frames here are short and unmasked: opcode, 7-bit length, payload.
          if (buffer.length >= 2 && ((buffer[0] ?? 0) & 0x0f) === 8) {
            const length = (buffer[1] ?? 0) & 0x7f;
            if (buffer.length < 2 + length) return;
            done({ code: buffer.readUInt16BE(2), reason: buffer.subarray(4, 2 + length).toString('utf8') });
          }
        });
      });
      socket.on('error', () => {});
      resolve({ socket, sendText: (text) => socket.write(clientFrame(1, text)), closed });
    });
    req.on('response', (response) => {
      response.resume();
      reject(new Error(`upgrade refused: ${response.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}
