import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ScriptedClient, ToolKind, ToolResult } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { workspace } from '../support/runs.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Runs one call of a tool that returns `result`; gives the tool message the model saw next and the journal. */
async function runTool(result: unknown, options: { maxAttachmentBytes?: number } = {}) {
  const client = new ScriptedClient([toolTurn('c1', 'shot', {}), textTurn('done')]);
  const tool = defineTool({
    name: 'shot',
    description: 'Returns something.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: () => result as ToolResult,
  });
  const { agent, session } = makeAgent(client, [() => tool], { cwd: workspace(), ...options });
  const events = await collect(agent.run('go'));
  const message = client.requests[1]?.messages.find((entry) => entry.role === 'tool');
  const journaled = session.journal.find((entry) => entry.type === 'tool_result');
  return { events, message, journaled };
}

describe('attack: a tool returning bad parts', () => {
  it.each([
    ['an image without mediaType', [{ type: 'image', data: PNG }], /part 0 mediaType/],
    ['bad base64', [{ type: 'image', mediaType: 'image/png', data: 'not base64!' }], /part 0 data/],
    ['a javascript: url', [{ type: 'file', mediaType: 'application/pdf', url: 'javascript:alert(1)' }], /part 0 url/],
    ['no parts', [], /at least one part/],
    ['a null part', [null], /part 0/],
    ['a number as data', [{ type: 'image', mediaType: 'image/png', data: 5 }], /part 0 data/],
    ['a file with a number as url', [{ type: 'file', mediaType: 'application/pdf', url: 5 }], /part 0 url/],
  ])("%s becomes the call's invalid_content error, naming the tool; the run goes on", async (_, content, message) => {
    const { events, message: tool, journaled } = await runTool({ success: true, content });
    expect(typeof tool?.content).toBe('string');
    expect(tool?.content).toMatch(/^Error: tool 'shot' result/);
    expect(tool?.content).toMatch(message);
    expect(JSON.stringify(journaled)).not.toContain('"content":[');
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
  });

  it("content that is a string instead of parts is the call's error, not a crash", async () => {
    const { events, message } = await runTool({ success: true, content: 'just text' });
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(message?.content).toBe("Error: Internal error: tool 'shot' returned content that is not an array of parts");
  });

  it('a plain object {success: true, content: [...]} without output works like ToolResult.content', async () => {
    const content = [
      { type: 'text', text: 'the screen' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ];
    const { events, message } = await runTool({ success: true, content });
    expect(message?.content).toEqual(content);
    const complete = events.find((event) => event.type === 'tool_call_complete');
    expect(JSON.stringify(complete?.data)).toContain('the screen');
    expect(JSON.stringify(complete?.data)).toContain('[image image/png, 70 bytes]');
  });

  it("a tool's image exactly at the cap passes; one byte over is the call's error", async () => {
    const at = await runTool(
      {
        success: true,
        content: [{ type: 'image', mediaType: 'image/png', data: Buffer.alloc(60).toString('base64') }],
      },
      { maxAttachmentBytes: 60 },
    );
    expect(Array.isArray(at.message?.content)).toBe(true);
    const over = await runTool(
      {
        success: true,
        content: [{ type: 'image', mediaType: 'image/png', data: Buffer.alloc(61).toString('base64') }],
      },
      { maxAttachmentBytes: 60 },
    );
    expect(over.message?.content).toMatch(
      /^Error: tool 'shot' result part 0: the image is 61 bytes, over the cap of 60/,
    );
  });

  it('ToolResult.content given a malformed part does not throw in the tool: the registry names the part', async () => {
    const result = ToolResult.content([{ type: 'image', mediaType: 'image/png', data: 5 } as never]);
    const { message } = await runTool(result);
    expect(message?.content).toMatch(/^Error: tool 'shot' result part 0 data/);
  });

  it('a failed result with parts is an error: its parts are not sent', async () => {
    const { message } = await runTool({
      success: false,
      error: 'camera off',
      content: [{ type: 'image', mediaType: 'image/png', data: PNG }],
    });
    expect(message?.content).toBe('Error: camera off');
  });

  it('a tool output quoting a url with credentials does not leak it through the note', async () => {
    const { events } = await runTool({
      success: true,
      content: [{ type: 'image', mediaType: 'image/png', url: 'https://me:hunter2@img.test/a.png' }],
    });
    const complete = events.find((event) => event.type === 'tool_call_complete');
    expect(JSON.stringify(complete)).not.toContain('hunter2');
  });
});
