import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ScriptedClient, ToolKind, ToolResult } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { workspace } from '../support/runs.js';

const bytes = (n: number) => Buffer.alloc(n, 3).toString('base64');

/** A run whose tool returns text and whose tool-result guardrail replaces it with an image of `size` bytes. */
async function replaceWithImage(size: number, maxAttachmentBytes: number) {
  const client = new ScriptedClient([toolTurn('c1', 'read', {}), textTurn('done')]);
  const tool = defineTool({
    name: 'read',
    description: 'Reads.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: () => ToolResult.success('plain text'),
  });
  const { agent, session } = makeAgent(client, [() => tool], {
    cwd: workspace(),
    maxAttachmentBytes,
    guardrails: {
      toolResult: [
        { name: 'swap', check: () => ({ replace: [{ type: 'image', mediaType: 'image/png', data: bytes(size) }] }) },
      ],
    },
  });
  const events = await collect(agent.run('read it'));
  const message = client.requests[1]?.messages.find((entry) => entry.role === 'tool');
  return { events, message, session };
}

describe("attack: a guardrail's replacement parts and Config.maxAttachmentBytes", () => {
  it('a replacement image over the configured cap is refused like a tool result over it', async () => {
    const { events, message, session } = await replaceWithImage(200, 100);
    // A guardrail that fails ends the run (its verdict is `error`): the image never reaches a request.
    expect(message).toBeUndefined();
    expect(session.journal.find((entry) => entry.type === 'guardrail')).toMatchObject({
      outcome: 'error',
      reason: 'Error: the replacement part 0: the image is 200 bytes, over the cap of 100 (maxAttachmentBytes)',
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'guardrail' } });
  });

  it('a replacement image under a raised cap (above the 5 MiB default) is kept', async () => {
    const size = 5 * 1024 * 1024 + 10;
    const { message } = await replaceWithImage(size, 6 * 1024 * 1024);
    expect(message?.content).toEqual([{ type: 'image', mediaType: 'image/png', data: bytes(size) }]);
  });
});
