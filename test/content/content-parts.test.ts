import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anthropicImageTokens,
  estimateContentTokens,
  imageDimensions,
  openAiImageTokens,
} from '../../src/context/index.js';
import { defineTool, HarnessError, ScriptedClient, Session, ToolResult } from '../../src/index.js';
import { type ContentPart, checkContent, contentText } from '../../src/tools/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { workspace } from '../support/runs.js';

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The first bytes of a PNG of the given size: enough for its header. */
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

const screenshot: ContentPart[] = [
  { type: 'text', text: 'what is on this screen?' },
  { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
];

function screenshotTool() {
  return defineTool({
    name: 'screenshot',
    description: 'Takes a screenshot.',
    kind: 'read',
    schema: z.object({}),
    execute: () =>
      ToolResult.content([
        { type: 'text', text: 'the screen' },
        { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
      ]),
  });
}

describe('content parts (SPEC §15)', () => {
  it('a task of parts reaches the model and the journal as parts, and the session reloads them', async () => {
    const client = new ScriptedClient([textTurn('a white pixel')]);
    const { agent, session, config } = makeAgent(client, [], { cwd: workspace() });
    await collect(agent.run(screenshot));
    expect(client.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: screenshot });
    expect(session.journal.find((entry) => entry.type === 'user_message')).toEqual({
      type: 'user_message',
      content: screenshot,
    });
    const reloaded = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(reloaded.messages.find((message) => message.role === 'user')?.content).toEqual(screenshot);
  });

  it("a tool's parts become the tool message, and its text is the result's output", async () => {
    const client = new ScriptedClient([toolTurn('c1', 'screenshot', {}), textTurn('done')]);
    const { agent } = makeAgent(client, [() => screenshotTool()], { cwd: workspace() });
    const events = await collect(agent.run('look'));
    const tool = client.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(tool?.content).toEqual([
      { type: 'text', text: 'the screen' },
      { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
    ]);
    const end = events.find((event) => event.type === 'tool_call_complete');
    expect(JSON.stringify(end?.data)).toContain('the screen');
  });

  it('refuses an image over maxAttachmentBytes before any request, naming the part', async () => {
    const client = new ScriptedClient([textTurn('never')]);
    const { agent } = makeAgent(client, [], { cwd: workspace(), maxAttachmentBytes: 50 });
    const big: ContentPart[] = [{ type: 'image', mediaType: 'image/png', data: Buffer.alloc(200).toString('base64') }];
    expect(() => agent.run(big)).toThrow(/run\(\) input part 0: the image is 200 bytes, over the cap of 50/);
    expect(client.requests).toHaveLength(0);
  });

  it("a tool's image over the cap is the call's error, naming the tool", async () => {
    const client = new ScriptedClient([toolTurn('c1', 'screenshot', {}), textTurn('done')]);
    const { agent } = makeAgent(client, [() => screenshotTool()], { cwd: workspace(), maxAttachmentBytes: 10 });
    await collect(agent.run('look'));
    const tool = client.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(tool?.content).toMatch(
      /^Error: tool 'screenshot' result part 1: the image is \d+ bytes, over the cap of 10/,
    );
  });

  it.each([
    [[{ type: 'image', mediaType: 'image/bmp', data: PNG_1X1 }], /part 0 mediaType: must be one of image\/png/],
    [[{ type: 'image', mediaType: 'image/png', data: 'not base64!' }], /part 0 data: must be base64/],
    [
      [{ type: 'image', mediaType: 'image/png', data: `data:image/png;base64,${PNG_1X1}` }],
      /part 0 data: must be base64/,
    ],
    [[{ type: 'image', mediaType: 'image/png' }], /part 0: give exactly one of data \(base64\) and url/],
    [[{ type: 'image', mediaType: 'image/png', data: PNG_1X1, url: 'https://x.test/a.png' }], /exactly one/],
    [
      [{ type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' }],
      /part 0 url: must be an http\(s\) address/,
    ],
    [[{ type: 'file', mediaType: 'pdf', data: PNG_1X1 }], /part 0 mediaType: must be a media type/],
    [[{ type: 'video', data: PNG_1X1 }], /part 0/],
    [[], /must hold at least one part/],
  ])('refuses bad parts with invalid_content: %j', (parts, message) => {
    const { agent } = makeAgent(new ScriptedClient([]), [], { cwd: workspace() });
    let thrown: unknown;
    try {
      agent.run(parts as ContentPart[]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect((thrown as HarnessError).reason).toBe('invalid_content');
    expect((thrown as Error).message).toMatch(message);
  });

  it('a journal with a malformed part is refused on load', () => {
    const { config } = makeAgent(new ScriptedClient([]), [], { cwd: workspace() });
    const journal = [{ type: 'user_message', content: [{ type: 'image', mediaType: 'image/png', data: '%%' }] }];
    expect(() => Session.replay(journal as never, config)).toThrow(/journal entry 0: 'content' part 0 data/);
  });

  it('text-only places see a note for each attachment', () => {
    expect(contentText(screenshot)).toBe('what is on this screen?\n[image image/png, 70 bytes]');
    expect(
      contentText([{ type: 'file', mediaType: 'application/pdf', url: 'https://x.test/a.pdf', name: 'a.pdf' }]),
    ).toBe('[file "a.pdf" application/pdf, at https://x.test/a.pdf]');
    expect(checkContent('plain', 'x', 1)).toBe('plain');
  });

  it("guardrails check the text and see the parts; a tool result's redaction may keep the image", async () => {
    const seen: unknown[] = [];
    const client = new ScriptedClient([toolTurn('c1', 'screenshot', {}), textTurn('done')]);
    const { agent } = makeAgent(client, [() => screenshotTool()], {
      cwd: workspace(),
      guardrails: {
        toolResult: [
          {
            name: 'redact',
            check: (text, context) => {
              seen.push(text, context.content);
              const parts = context.content as readonly ContentPart[];
              return { replace: [{ type: 'text', text: 'the [redacted]' }, parts[1] as ContentPart] };
            },
          },
        ],
      },
    });
    await collect(agent.run('look'));
    expect(seen[0]).toBe('the screen\n[image image/png, 70 bytes]');
    expect(Array.isArray(seen[1])).toBe(true);
    const tool = client.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(tool?.content).toEqual([
      { type: 'text', text: 'the [redacted]' },
      { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
    ]);
  });
});

describe('token estimates of parts', () => {
  it('reads PNG, GIF, JPEG and WebP sizes from their headers', () => {
    expect(imageDimensions(pngHeader(1024, 768))).toEqual({ width: 1024, height: 768 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1').toString('base64');
    expect(imageDimensions(gif)).toEqual({ width: 800, height: 600 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0,
    ]);
    expect(imageDimensions(jpeg.toString('base64'))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(Buffer.from('not an image at all').toString('base64'))).toBeUndefined();
  });

  it("follows OpenAI's tile formula and Anthropic's pixel formula", () => {
    // OpenAI's documented examples: 1024×1024 → 765 tokens; 2048×4096 → 1105.
    expect(openAiImageTokens({ width: 1024, height: 1024 })).toBe(765);
    expect(openAiImageTokens({ width: 2048, height: 4096 })).toBe(1105);
    // Anthropic's: 1092×1092 → about 1590; a larger image is scaled to a 1568 long edge first.
    expect(anthropicImageTokens({ width: 1092, height: 1092 })).toBe(1590);
    expect(anthropicImageTokens({ width: 3136, height: 3136 })).toBe(
      anthropicImageTokens({ width: 1568, height: 1568 }),
    );
  });

  it('counts an image by the larger formula, not by its base64 length', () => {
    const image: ContentPart[] = [{ type: 'image', mediaType: 'image/png', data: pngHeader(1024, 1024) }];
    expect(estimateContentTokens(image)).toBe(Math.max(765, anthropicImageTokens({ width: 1024, height: 1024 })));
    expect(estimateContentTokens([{ type: 'text', text: 'abcdefgh' }])).toBe(2);
  });
});
