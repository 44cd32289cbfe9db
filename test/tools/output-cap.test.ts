import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ScriptedClient, ToolKind, ToolResult } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const LONG = 'e'.repeat(500);

async function observation(execute: () => unknown): Promise<string | undefined> {
  const tool = defineTool({
    name: 'noisy',
    description: 'Fails at length.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: execute as () => ToolResult,
  });
  const client = new ScriptedClient([toolTurn('n1', 'noisy', {}), textTurn('ok')]);
  const { agent, session } = makeAgent(client, [() => tool], { cwd: tempWorkspace(), maxToolOutputChars: 100 });
  await collect(agent.run('go'));
  const content = session.messages.find((message) => message.role === 'tool')?.content;
  return content === undefined ? undefined : String(content);
}

describe('the cap on tool output (maxToolOutputChars), as the model sees it', () => {
  it('cuts an error result longer than the cap, with the marker that says how much was cut', async () => {
    expect(await observation(() => ToolResult.error(LONG))).toBe(
      `Error: ${'e'.repeat(100)}\n[truncated 400 characters]`,
    );
  });

  it('cuts the message of a tool that throws at length, too', async () => {
    const content = await observation(() => {
      throw new Error(LONG);
    });
    // `Internal error: ` (16 characters) counts towards the cap.
    expect(content).toBe(`Error: Internal error: ${'e'.repeat(84)}\n[truncated 416 characters]`);
  });

  it('keeps an error result of exactly the cap whole', async () => {
    expect(await observation(() => ToolResult.error('e'.repeat(100)))).toBe(`Error: ${'e'.repeat(100)}`);
  });
});
