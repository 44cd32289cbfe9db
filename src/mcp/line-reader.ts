/** The largest message read from a stdio server, in bytes (the MCP SDK's own limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Bytes kept of each end of an over-long line: enough to find its JSON-RPC `id`. */
const EDGE_BYTES = 256;

/** One line read from a stream: whole, or dropped for its size with its two ends kept. */
export type ReadLine =
  | { readonly kind: 'line'; readonly line: Buffer }
  | { readonly kind: 'oversize'; readonly bytes: number; readonly head: string; readonly tail: string };

/**
 * Splits a byte stream into newline-ended lines, holding at most `maxBytes` of a line: a longer
 * line is dropped as it arrives (its bytes counted, its first and last bytes kept), so a server
 * cannot grow this process's memory without bound, nor throw from a stream handler.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private dropped: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  /** Takes a chunk; yields each line it completes (without its newline). */
  *push(chunk: Buffer): Generator<ReadLine> {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      yield this.finish();
      start = newline + 1;
    }
  }

  /** Forgets a partial line. */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.dropped = undefined;
  }

  private take(piece: Buffer): void {
    if (this.dropped !== undefined) {
      this.dropped.bytes += piece.length;
      this.dropped.tail = Buffer.concat([this.dropped.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const head = Buffer.concat([...this.parts, piece.subarray(0, EDGE_BYTES)]).subarray(0, EDGE_BYTES);
    const tail = Buffer.concat([...this.parts.slice(-1), piece]).subarray(-EDGE_BYTES);
    this.dropped = { bytes: this.size + piece.length, head: Buffer.from(head), tail: Buffer.from(tail) };
    this.parts = [];
    this.size = 0;
  }

  private finish(): ReadLine {
    const dropped = this.dropped;
    if (dropped !== undefined) {
      this.dropped = undefined;
      return { kind: 'oversize', bytes: dropped.bytes, head: dropped.head.toString(), tail: dropped.tail.toString() };
    }
    const line = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    return { kind: 'line', line };
  }
}
