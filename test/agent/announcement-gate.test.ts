import { describe, expect, it } from 'vitest';
import { AnnouncementGate } from '../../src/agent/announcement-gate.js';

describe('AnnouncementGate', () => {
  it('lets announcements out in order, one at a time, while the reader is ready', () => {
    let ready = true;
    const gate = new AnnouncementGate(() => ready);
    const out: string[] = [];
    const held: (() => void)[] = [];
    for (const id of ['a', 'b', 'c']) {
      gate.enter((delivered) => {
        out.push(id);
        held.push(delivered);
      });
    }
    expect(out).toEqual(['a']); // b waits until a is delivered
    ready = false;
    held[0]?.();
    expect(out).toEqual(['a']); // a is delivered, but the reader is busy
    ready = true;
    gate.pump();
    expect(out).toEqual(['a', 'b']);
    held[1]?.();
    expect(out).toEqual(['a', 'b', 'c']);
  });

  it('lets a whole batch out at once when each announcement is delivered synchronously', () => {
    const gate = new AnnouncementGate(() => true);
    const out: string[] = [];
    for (const id of ['a', 'b', 'c']) {
      gate.enter((delivered) => {
        out.push(id);
        delivered();
      });
    }
    expect(out).toEqual(['a', 'b', 'c']);
  });

  it('holds everything while the reader is not ready', () => {
    let ready = false;
    const gate = new AnnouncementGate(() => ready);
    const out: string[] = [];
    gate.enter((delivered) => {
      out.push('a');
      delivered();
    });
    gate.pump();
    expect(out).toEqual([]);
    ready = true;
    gate.pump();
    expect(out).toEqual(['a']);
  });
});
