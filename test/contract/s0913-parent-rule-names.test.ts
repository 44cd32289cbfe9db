// SPEC §10 / docs/approval.md "The rule is journaled": a rule is named by its key (`shell`,
// `kind:write`, `fallback`), with a function's own name only when it has another; a sub-agent's
// rule taken from its parent reads `parent <that name>`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  agentTool,
  Config,
  defineTool,
  type PermissionPolicy,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { callChunk, doneChunk, FnClient, textChunk } from '../support/runs.js';

/** A parent whose `helper` child calls `write_note` once; returns the rule of each request. */
async function askedRules(parentPolicy: PermissionPolicy): Promise<unknown[]> {
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Writes a note.',
    kind: ToolKind.WRITE,
    schema: z.object({ text: z.string() }),
    execute: () => ToolResult.success('written'),
  });
  const helper = agentTool({
    name: 'helper',
    description: 'Writes notes.',
    config: new Config(),
    client: new FnClient((n) =>
      n === 1 ? [callChunk('w1', 'write_note', { text: 'hi' }), doneChunk()] : [textChunk('child done'), doneChunk()],
    ),
    registry: new ToolRegistry().register(writeNote),
  });
  const agent = new Agent(new Config({ permissions: { ...parentPolicy, helper: 'allow' } }), {
    client: new FnClient((n) =>
      n === 1 ? [callChunk('h1', 'helper', { task: 'write' }), doneChunk()] : [textChunk('done'), doneChunk()],
    ),
    registry: new ToolRegistry().register(helper),
  });
  const rules: unknown[] = [];
  for await (const event of agent.run('go')) {
    if (event.type === 'tool_approval_request') {
      rules.push(event.data.rule);
      agent.approve(event.data.callId);
    }
  }
  return rules;
}

describe('a parent’s rule in a child’s request is named as the parent’s key', () => {
  it('the parent’s fallback function reads `parent fallback`, as a top-level fallback reads `fallback`', async () => {
    expect(await askedRules({ '*': () => 'ask' })).toEqual(['parent fallback']);
  });

  it('a parent’s function named by its key reads `parent write`, not the key twice', async () => {
    expect(await askedRules({ write: () => 'ask' })).toEqual(['parent write']);
  });

  it('a parent’s function with a name of its own keeps it', async () => {
    expect(
      await askedRules({
        write: function reviewWrites() {
          return 'ask';
        },
      }),
    ).toEqual(['parent write: reviewWrites']);
  });
});
