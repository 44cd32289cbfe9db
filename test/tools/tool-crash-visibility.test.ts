import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Config, defineTool, ScriptedClient, Session, stableJson, ToolRegistry, ToolResult } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function explodeInHelper(): never {
  throw new TypeError('kaboom at /secret/host/path');
}

const crashing = () =>
  defineTool({
    name: 'crash',
    description: 'Always throws.',
    kind: 'read',
    schema: z.object({}),
    execute: () => explodeInHelper(),
  });

const plain = () =>
  defineTool({
    name: 'stats',
    description: 'Returns an object.',
    kind: 'read',
    schema: z.object({}),
    execute: async () => ({ lines: 3, words: ['a', 'b'] }),
  });

describe('a tool that throws, as its developer sees it', () => {
  it('keeps what was thrown on the result, without changing how the result compares or serialises', async () => {
    const result = await new ToolRegistry().register(crashing()).invoke('crash', {}, { callId: 'c1' });
    expect(result).toEqual(ToolResult.error('Internal error: kaboom at /secret/host/path'));
    expect(JSON.stringify(result)).toBe('{"success":false,"error":"Internal error: kaboom at /secret/host/path"}');
    expect(result.exception).toMatchObject({ name: 'TypeError', message: 'kaboom at /secret/host/path' });
    expect(result.exception?.stack).toContain('explodeInHelper');
  });

  it('keeps it when the error text is cut to the output cap', async () => {
    const long = defineTool({
      name: 'long',
      description: '',
      kind: 'read',
      schema: z.object({}),
      execute: () => Promise.reject(new RangeError('x'.repeat(500))),
    });
    const registry = new ToolRegistry(new Config({ maxToolOutputChars: 100 })).register(long);
    const result = await registry.invoke('long', {});
    expect(result.error).toContain('[truncated');
    expect(result.exception).toMatchObject({ name: 'RangeError', message: 'x'.repeat(500) });
  });

  it('puts the error (name, message, stack) on tool_call_complete, and nothing of it in the journal', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'crash', {}), textTurn('done')]);
    const { agent, session, config, registry } = makeAgent(client, [crashing], {});
    const events = await collect(agent.run('go'));
    const complete = events.find((event) => event.type === 'tool_call_complete');
    expect(complete?.type).toBe('tool_call_complete');
    if (complete?.type !== 'tool_call_complete') return;
    expect(complete.data).toMatchObject({
      callId: 'c1',
      success: false,
      error: 'Internal error: kaboom at /secret/host/path',
      exception: { name: 'TypeError', message: 'kaboom at /secret/host/path' },
    });
    expect(complete.data.exception?.stack).toContain('explodeInHelper');
    // The model sees the message only; the journal holds no stack, and replays byte for byte.
    expect(session.messages.at(-1)?.content).toBe('Error: Internal error: kaboom at /secret/host/path');
    const journal = stableJson(session.journal);
    expect(journal).not.toContain('explodeInHelper');
    expect(stableJson(Session.replay(session.journal, config, { registry }).journal)).toBe(journal);
  });

  it('writes the stack to stderr under DEBUG=agent-harness, and nothing without it', async () => {
    const script = `
      import { z } from 'zod';
      import { defineTool } from './src/tools/tool.ts';
      import { ToolRegistry } from './src/tools/registry.ts';
      function explodeInHelper() { throw new Error('kaboom\\u001b[2J'); }
      const tool = defineTool({ name: 'crash', description: '', kind: 'read', schema: z.object({}), execute: () => explodeInHelper() });
      const result = await new ToolRegistry().register(tool).invoke('crash', {}, { callId: 'call-7' });
      process.stdout.write(result.error);
    `;
    const run = (env: Record<string, string | undefined>) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: root,
          env: { ...process.env, DEBUG: undefined, ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => {
          stdout += text;
        });
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text;
        });
        child.on('error', reject);
        child.on('close', () => resolve({ stdout, stderr }));
      });
    const [on, all, off] = await Promise.all([
      run({ DEBUG: 'agent-harness' }),
      run({ DEBUG: 'express,agent-harness:*' }),
      run({}),
    ]);
    expect(on.stdout).toBe('Internal error: kaboom\u001b[2J');
    // The message is made printable: a tool's text cannot act on the terminal.
    expect(on.stderr).toContain("agent-harness:tools tool 'crash' (call call-7) threw: Error: kaboom⟨U+001B⟩[2J\n");
    expect(on.stderr).toMatch(/ {4}at explodeInHelper/);
    expect(all.stderr).toContain("agent-harness:tools tool 'crash' (call call-7) threw:");
    expect(off.stderr).toBe('');
  }, 120_000); // three processes that load TypeScript through tsx, on a shared machine
});

describe('a tool that returns a plain object', () => {
  it('succeeds, and the model sees the stable JSON of the object', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'stats', {}), textTurn('done')]);
    const { agent, session } = makeAgent(client, [plain], {});
    const events = await collect(agent.run('go'));
    const complete = events.find((event) => event.type === 'tool_call_complete');
    expect(complete?.data).toEqual({
      callId: 'c1',
      name: 'stats',
      success: true,
      output: '{"lines":3,"words":["a","b"]}',
    });
    expect(session.messages.at(-1)?.content).toBe('{"lines":3,"words":["a","b"]}');
  });
});
