import { describe, expect, it } from 'vitest';
import { HarnessError, ScriptedClient } from '../../src/index.js';
import { collect, makeAgent, textTurn } from '../support/fixtures.js';
import { workspace } from '../support/runs.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function setup(maxAttachmentBytes?: number) {
  const client = new ScriptedClient([textTurn('ok')]);
  const made = makeAgent(client, [], {
    cwd: workspace(),
    ...(maxAttachmentBytes === undefined ? {} : { maxAttachmentBytes }),
  });
  return { client, ...made };
}

/** Calls run() and returns the HarnessError it throws at the call. */
function refusal(
  input: unknown,
  maxAttachmentBytes?: number,
): { error: HarnessError; requests: number; journal: number } {
  const { agent, client, session } = setup(maxAttachmentBytes);
  let caught: unknown;
  try {
    agent.run(input as never);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(HarnessError);
  return { error: caught as HarnessError, requests: client.requests.length, journal: session.journal.length };
}

describe('attack: malformed parts given to run()', () => {
  it.each([
    ['an image without mediaType', [{ type: 'image', data: PNG }], /part 0 mediaType/],
    ['an image of no bytes', [{ type: 'image', mediaType: 'image/png', data: '' }], /part 0 data: holds no bytes/],
    ['an image with null data', [{ type: 'image', mediaType: 'image/png', data: null }], /part 0 data/],
    [
      'an image with data and url',
      [{ type: 'image', mediaType: 'image/png', data: PNG, url: 'https://x.test/a.png' }],
      /part 0.*exactly one/,
    ],
    ['a nested array of parts', [[{ type: 'text', text: 'hi' }]], /part 0/],
    ['a part of unknown type', [{ type: 'audio', data: PNG }], /part 0 type/],
    [
      'a file with a non-string name',
      [{ type: 'file', mediaType: 'application/pdf', data: PNG, name: 42 }],
      /part 0 name/,
    ],
    ['a text part with a number', [{ type: 'text', text: 7 }], /part 0 text/],
    ['an extra key on a text part', [{ type: 'text', text: 'hi', extra: 1 }], /part 0/],
    ['a javascript: url', [{ type: 'image', mediaType: 'image/png', url: 'javascript:alert(1)' }], /part 0 url/],
    ['a data: url', [{ type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` }], /part 0 url/],
    ['a file: url', [{ type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' }], /part 0 url/],
    [
      'base64 with a data: prefix',
      [{ type: 'image', mediaType: 'image/png', data: `data:image/png;base64,${PNG}` }],
      /part 0 data/,
    ],
    [
      'base64 with a newline',
      [{ type: 'image', mediaType: 'image/png', data: `${PNG.slice(0, 40)}\n${PNG.slice(40)}` }],
      /part 0 data/,
    ],
    ['base64 with spaces', [{ type: 'image', mediaType: 'image/png', data: ` ${PNG} ` }], /part 0 data/],
    ['an svg image (script-capable)', [{ type: 'image', mediaType: 'image/svg+xml', data: PNG }], /part 0 mediaType/],
    ['no parts at all', [], /at least one part/],
    ['a part that is null', [null], /part 0/],
    [
      'a second part bad',
      [
        { type: 'text', text: 'ok' },
        { type: 'image', mediaType: 'image/png' },
      ],
      /part 1/,
    ],
  ])('%s is invalid_content naming the part, before any request or journal entry', (_, input, message) => {
    const { error, requests, journal } = refusal(input);
    expect(error.reason).toBe('invalid_content');
    expect(error.message).toMatch(/^run\(\) input/);
    expect(error.message).toMatch(message);
    expect(requests).toBe(0);
    expect(journal).toBe(0);
  });

  it('a part with an own __proto__ key is refused and pollutes nothing', () => {
    const part = JSON.parse(`{"type":"text","text":"hi","__proto__":{"polluted":true}}`) as unknown;
    const { error } = refusal([part]);
    expect(error.reason).toBe('invalid_content');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('neither a string nor an array is refused at the call', () => {
    for (const input of [42, null, { type: 'text', text: 'hi' }]) {
      const { error } = refusal(input);
      expect(['invalid_argument', 'invalid_content']).toContain(error.reason);
    }
  });

  it('a url with credentials never reaches the journal or events with its password', async () => {
    const { agent, session } = setup();
    const parts = [{ type: 'image' as const, mediaType: 'image/png', url: 'https://user:s3cret@img.test/a.png' }];
    const events = await collect(agent.run(parts));
    expect(JSON.stringify(events)).not.toContain('s3cret');
    // The journal keeps what was sent (the provider needs the address); a note shown as text must not leak it.
    const start = events.find((event) => event.type === 'agent_start');
    expect(JSON.stringify(start)).not.toContain('s3cret');
    expect(session.journal.some((entry) => entry.type === 'user_message')).toBe(true);
  });

  it('parts changed by the caller after run() do not change what is sent or journaled', async () => {
    const { agent, client, session } = setup();
    const parts = [
      { type: 'text' as const, text: 'original' },
      { type: 'image' as const, mediaType: 'image/png', data: PNG },
    ];
    const run = agent.run(parts);
    parts[0] = { type: 'text', text: 'changed' };
    (parts[1] as { data: string }).data = 'AAAA';
    await collect(run);
    const sent = [
      { type: 'text', text: 'original' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ];
    expect(client.requests[0]?.messages.at(-1)?.content).toEqual(sent);
    expect(session.journal.find((entry) => entry.type === 'user_message')).toEqual({
      type: 'user_message',
      content: sent,
    });
  });

  it('a huge text part is accepted as text (no attachment cap on text)', async () => {
    const { agent, client } = setup(10);
    const text = 'x'.repeat(2_000_000);
    await collect(agent.run([{ type: 'text', text }]));
    expect(client.requests[0]?.messages.at(-1)?.content).toEqual([{ type: 'text', text }]);
  });
});

describe('attack: the attachment cap', () => {
  const bytes = (n: number) => Buffer.alloc(n, 7).toString('base64');

  it('an image exactly at maxAttachmentBytes is sent', async () => {
    for (const n of [99, 100]) {
      const { agent, client } = setup(100);
      await collect(agent.run([{ type: 'image', mediaType: 'image/png', data: bytes(n) }]));
      expect(client.requests).toHaveLength(1);
    }
  });

  it('an image one byte over is refused, naming the part and the cap', () => {
    for (const n of [101, 102, 103]) {
      const { error, requests } = refusal(
        [
          { type: 'text', text: 'see' },
          { type: 'image', mediaType: 'image/png', data: bytes(n) },
        ],
        100,
      );
      expect(error.message).toContain(`part 1: the image is ${n} bytes, over the cap of 100`);
      expect(requests).toBe(0);
    }
  });

  it('a file over the cap is refused naming its file name', () => {
    const { error } = refusal(
      [{ type: 'file', mediaType: 'application/pdf', name: 'report.pdf', data: bytes(101) }],
      100,
    );
    expect(error.message).toContain('part 0 ("report.pdf")');
  });

  it('a url part is not counted against the cap (it is never fetched)', async () => {
    const { agent, client } = setup(1);
    await collect(agent.run([{ type: 'image', mediaType: 'image/png', url: 'https://img.test/a.png' }]));
    expect(client.requests).toHaveLength(1);
  });
});
