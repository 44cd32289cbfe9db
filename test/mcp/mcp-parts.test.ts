import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Config, ScriptedClient, ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { closeLater } from './support/sources.js';
import { type HttpTestServer, startHttpTestServer } from './support/test-server-process.js';

/** What the test server's `screenshot` returns: a 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1').toString('base64');

let server: HttpTestServer;
beforeAll(async () => {
  server = await startHttpTestServer(0, ['--media']);
}, 30_000);
afterAll(() => server.stop());

async function connected(maxAttachmentBytes?: number) {
  const source = closeLater(await connectMcp({ url: server.url, name: 'shots' }));
  const config = new Config({ maxAttachmentBytes });
  return { source, registry: new ToolRegistry(config).register(...source.tools) };
}

describe('MCP image and resource results become parts (SPEC §15; the test server over streamable HTTP)', () => {
  it('an image result is an image part after its caption', async () => {
    const { registry } = await connected();
    expect(await registry.invoke('screenshot', {})).toEqual({
      success: true,
      output: 'the screen:\n[image image/png, 70 bytes]',
      content: [
        { type: 'text', text: 'the screen:' },
        { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
      ],
    });
  });

  it('an embedded resource with a blob is a file part of its mimeType, named after its URI', async () => {
    const { registry } = await connected();
    expect((await registry.invoke('document', {})).content).toEqual([
      { type: 'text', text: 'the report:' },
      { type: 'file', mediaType: 'application/pdf', data: PDF, name: 'q3 report.pdf' },
    ]);
  });

  it('what a model cannot take becomes a note saying why: other image types, audio, links, untyped blobs', async () => {
    const { registry } = await connected();
    expect(await registry.invoke('odd_media', {})).toEqual({
      success: true,
      output: [
        '[image/bmp, 10 bytes; not sent: image/bmp is not one of image/png, image/jpeg, image/gif, image/webp]',
        '[audio/wav, 10 bytes; not sent: audio is not passed to the model]',
        '[resource link: file:///c.md (c.md)]',
        '[resource resource, file:///d.bin, 4 bytes; not sent: no mimeType]',
      ].join('\n'),
    });
  });

  it('an image over maxAttachmentBytes is the call error, naming the tool and the server', async () => {
    const { registry } = await connected(1000);
    expect(await registry.invoke('screenshot', { bytes: 1001 })).toEqual({
      success: false,
      error:
        "tool 'screenshot' (from mcp:shots) result part 1: the image is 1001 bytes, over the cap of 1000 (maxAttachmentBytes)",
    });
    expect((await registry.invoke('screenshot', { bytes: 1000 })).success).toBe(true);
  });

  it("reaches the model's request as the tool message's parts, and the journal", async () => {
    const source = closeLater(await connectMcp({ url: server.url, name: 'shots' }));
    const client = new ScriptedClient([toolTurn('c1', 'screenshot', {}), textTurn('one pixel')]);
    const screenshot = source.tools.find((tool) => tool.name === 'screenshot');
    if (screenshot === undefined) throw new Error('the test server has no screenshot tool');
    const { agent, session } = makeAgent(client, [() => screenshot], {});
    await collect(agent.run('look at the screen'));
    const parts = [
      { type: 'text', text: 'the screen:' },
      { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
    ];
    expect(client.requests[1]?.messages.find((message) => message.role === 'tool')?.content).toEqual(parts);
    expect(session.journal.find((entry) => entry.type === 'tool_result')).toMatchObject({ content: parts });
  });
});
