import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ScriptedClient } from '../../src/index.js';
import { ReadFileTool } from '../../src/tools/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A PNG signature then filler: `size` bytes in all. */
function png(size: number): Buffer {
  const bytes = Buffer.alloc(size, 5);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  return bytes;
}

async function readThrough(size: number, cap: number) {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'shot.png'), png(size));
  const client = new ScriptedClient([toolTurn('r1', 'read_file', { path: 'shot.png' }), textTurn('seen')]);
  const { agent } = makeAgent(client, [(config: Config) => new ReadFileTool(config)], { cwd, maxAttachmentBytes: cap });
  await collect(agent.run('read shot.png'));
  return client.requests[1]?.messages.find((message) => message.role === 'tool')?.content;
}

describe('attack: read_file on an image at and over maxAttachmentBytes', () => {
  it('an image of exactly the cap is attached whole', async () => {
    const content = await readThrough(300, 300);
    expect(content).toEqual([
      { type: 'text', text: 'shot.png (300 bytes)' },
      { type: 'image', mediaType: 'image/png', data: png(300).toString('base64') },
    ]);
  });

  it('one byte over is an error naming the file and the cap, and no bytes are sent', async () => {
    const content = await readThrough(301, 300);
    expect(content).toBe(
      'Error: File too large to attach: shot.png is 301 bytes, over the cap of 300 bytes (maxAttachmentBytes)',
    );
  });
});
