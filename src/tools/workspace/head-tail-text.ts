import { StringDecoder } from 'node:string_decoder';

/**
 * Collects a byte stream as text, keeping its first and last characters within a cap and
 * counting what falls between: a build's first lines and its final error both survive.
 */
export class HeadTailText {
  private readonly decoder = new StringDecoder('utf8');
  private head = '';
  private tail = '';
  private dropped = 0;
  private headFull = false;
  private readonly headMax: number;
  private readonly tailMax: number;

  /** `max` characters are kept at most: half from the start, half from the end. */
  constructor(max: number) {
    this.headMax = Math.ceil(max / 2);
    this.tailMax = Math.floor(max / 2);
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    this.add(this.decoder.write(chunk));
  }

  /** The text: all of it, or its head and tail around `[truncated N characters]`. */
  text(): string {
    this.add(this.decoder.end());
    this.trim();
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[truncated ${this.dropped.toLocaleString('en-US')} characters]\n${this.tail}`;
  }

  private add(text: string): void {
    if (text === '') return;
    let rest = text;
    if (!this.headFull) {
      let room = this.headMax - this.head.length;
      if (room >= rest.length) {
        this.head += rest;
        return;
      }
      const last = rest.charCodeAt(room - 1);
      if (room > 0 && last >= 0xd800 && last <= 0xdbff) room--;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
      this.headFull = true;
    }
    this.tail += rest;
    // Trim only when the tail is twice its size, so a stream of small chunks is not sliced each time.
    if (this.tail.length > 2 * this.tailMax + 1024) this.trim();
  }

  private trim(): void {
    let over = this.tail.length - this.tailMax;
    if (over <= 0) return;
    // Never keep the second half of a surrogate pair (an emoji, say) alone.
    const code = this.tail.charCodeAt(over);
    if (code >= 0xdc00 && code <= 0xdfff) over++;
    this.dropped += over;
    this.tail = this.tail.slice(over);
  }
}
