import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config, ReadFileTool, ScriptedClient, ToolRegistry } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A 1×1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The first bytes of each kind, then filler (NULs included, as in real binaries). */
const FILES: readonly [name: string, bytes: Buffer, type: 'image' | 'file', mediaType: string][] = [
  ['shot.png', PNG_1X1, 'image', 'image/png'],
  ['photo.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]), 'image', 'image/jpeg'],
  ['anim.gif', Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(40)]), 'image', 'image/gif'],
  [
    'pic.webp',
    Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(40)]),
    'image',
    'image/webp',
  ],
  [
    'report.pdf',
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n\x00', 'latin1'),
    'file',
    'application/pdf',
  ],
];

function setup(options: { maxAttachmentBytes?: number } = {}) {
  const workspace = tempWorkspace();
  const config = new Config({ cwd: workspace, ...options });
  const registry = new ToolRegistry(config).register(new ReadFileTool(config));
  return { workspace, read: (params: object) => registry.invoke('read_file', params) };
}

describe('read_file on an image or a PDF (SPEC §15)', () => {
  it.each(FILES)('returns %s as a %s part of %s, known by its first bytes', async (name, bytes, type, mediaType) => {
    const { workspace, read } = setup();
    writeFileSync(join(workspace, name), bytes);
    const result = await read({ path: name });
    const part =
      type === 'image'
        ? { type, mediaType, data: bytes.toString('base64') }
        : { type, mediaType, data: bytes.toString('base64'), name };
    expect(result).toEqual({
      success: true,
      output: expect.stringContaining(`${name} (${bytes.length} bytes)`),
      content: [{ type: 'text', text: `${name} (${bytes.length} bytes)` }, part],
    });
  });

  it('knows an image by its bytes whatever its name, and reads a text file named .png as text', async () => {
    const { workspace, read } = setup();
    writeFileSync(join(workspace, 'capture.bin'), PNG_1X1);
    writeFileSync(join(workspace, 'notes.png'), 'not an image\n');
    expect((await read({ path: 'capture.bin' })).content?.[1]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(await read({ path: 'notes.png' })).toEqual({ success: true, output: '     1\tnot an image' });
  });

  it('says when a binary file is named like an image but is not one', async () => {
    const { workspace, read } = setup();
    writeFileSync(join(workspace, 'broken.png'), Buffer.from([1, 0, 2, 3]));
    expect((await read({ path: 'broken.png' })).error).toBe(
      'Binary file: broken.png is named like a PNG image, but its first bytes are not one',
    );
  });

  it('refuses an image over maxAttachmentBytes, naming the file and the cap, and reads one at the cap', async () => {
    const { workspace, read } = setup({ maxAttachmentBytes: PNG_1X1.length });
    writeFileSync(join(workspace, 'big.png'), Buffer.concat([PNG_1X1, Buffer.alloc(1)]));
    writeFileSync(join(workspace, 'fits.png'), PNG_1X1);
    expect(await read({ path: 'big.png' })).toEqual({
      success: false,
      error: `File too large to attach: big.png is ${PNG_1X1.length + 1} bytes, over the cap of ${PNG_1X1.length} bytes (maxAttachmentBytes)`,
    });
    expect((await read({ path: 'fits.png' })).success).toBe(true);
  });

  it('sends the image to the model as the tool message, and journals it', async () => {
    const workspace = tempWorkspace();
    writeFileSync(join(workspace, 'shot.png'), PNG_1X1);
    const client = new ScriptedClient([toolTurn('c1', 'read_file', { path: 'shot.png' }), textTurn('a pixel')]);
    const { agent, session } = makeAgent(client, [(config) => new ReadFileTool(config)], { cwd: workspace });
    await collect(agent.run('what is in shot.png?'));
    const parts = [
      { type: 'text', text: `shot.png (${PNG_1X1.length} bytes)` },
      { type: 'image', mediaType: 'image/png', data: PNG_1X1.toString('base64') },
    ];
    expect(client.requests[1]?.messages.find((message) => message.role === 'tool')?.content).toEqual(parts);
    expect(session.journal.find((entry) => entry.type === 'tool_result')).toMatchObject({ content: parts });
  });
});
