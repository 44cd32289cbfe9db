import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import {
  FILESYSTEM_SERVER,
  hostileServerStdio,
  pidsRunning,
  startHttpTestServer,
} from '../mcp/support/test-server-process.js';
import { tempWorkspace } from '../support/workspace.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let model: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await model?.close();
  model = undefined;
});

async function cli(args: string[]) {
  const out = captured();
  const err = captured();
  const code = await main(args, out, err);
  return { code, out: out.text(), err: err.text() };
}

/** An OpenAI stream whose one chunk asks for one tool call. */
function toolCallStream(name: string, args: object): string {
  const chunk = {
    id: 'chatcmpl-mcp',
    object: 'chat.completion.chunk',
    created: 1741570283,
    model: 'gpt-4.1-mini',
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_m1', index: 0, type: 'function', function: { name, arguments: JSON.stringify(args) } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
  };
  return `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
}

describe('agent-harness mcp list', () => {
  it('prints the tools of a stdio server (name, kind, first line) and stops the server', async () => {
    const dir = tempWorkspace();
    const { code, out, err } = await cli([
      'mcp',
      'list',
      '--mcp',
      `"${process.execPath}" ${FILESYSTEM_SERVER} '${dir}'`,
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('secure-filesystem-server (14 tools)');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}read_text_file +read {5}Read the complete contents/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}write_file +network {2}Create a new file/));
    expect(pidsRunning([process.execPath, FILESYSTEM_SERVER, dir])).toEqual([]);
  });

  it('lists an HTTP server with the control characters of its descriptions removed', async () => {
    const server = await startHttpTestServer();
    try {
      const { code, out } = await cli(['mcp', 'list', '--mcp-url', server.url]);
      expect(code).toBe(0);
      expect(out).toMatch(/^test-server \(9 tools\)\n/);
      expect(out).toMatch(/\n {2}echo +read {5}Echoes text back\.\n/);
      expect(out).not.toContain('\u001b');
      expect(out).not.toContain('Second line');
    } finally {
      await server.stop();
    }
  });

  it('shows the bidi and format characters of a description as markers, never raw (stdio and HTTP)', async () => {
    const stdio = `"${process.execPath}" ${hostileServerStdio.args.map((arg) => `"${arg}"`).join(' ')}`;
    const server = await startHttpTestServer(0, ['--hostile']);
    try {
      for (const flags of [
        ['--mcp', stdio],
        ['--mcp-url', server.url],
      ]) {
        const { code, out } = await cli(['mcp', 'list', ...flags]);
        expect(code).toBe(0);
        expect(out).toContain('Opens ⟨U+202E⟩txt.exe⟨U+202C⟩ and ⟨U+2066⟩x⟨U+2069⟩⟨U+200B⟩⟨U+00AD⟩⟨U+FEFF⟩ done.');
        expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\u00ad\ufeff]/);
      }
    } finally {
      await server.stop();
    }
  });

  it('fails with one line naming a server that cannot start (exit 1)', async () => {
    const { code, out, err } = await cli(['mcp', 'list', '--mcp', 'no-such-mcp-command --flag']);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(
      "agent-harness mcp: MCP server 'no-such-mcp-command --flag' failed to start: command 'no-such-mcp-command' not found (ENOENT)\n",
    );
  });

  it.each([
    [['list', '--mcp', "server 'unclosed"], "--mcp: unclosed ' in 'server 'unclosed'"],
    [['list'], 'name at least one server with --mcp, --mcp-url or --mcp-config'],
    [['show'], "unknown mcp subcommand 'show'"],
    [['list', '--mcp-url', 'nope'], "--mcp-url must be a URL, got 'nope'"],
  ])('refuses %j as bad usage (exit 2)', async (args, message) => {
    const { code, err } = await cli(['mcp', ...args]);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});

describe('agent-harness run with MCP servers', () => {
  it('gives the model the server tools (from --mcp-config, prefixed) and their real results', async () => {
    const cwd = cliWorkspace();
    const config = join(tempWorkspace(), 'mcp.json');
    const server = { command: process.execPath, args: [FILESYSTEM_SERVER, cwd], prefix: 'fs' };
    writeFileSync(config, JSON.stringify({ mcpServers: { files: server } }));
    model = await startFakeServer([
      { chunks: [toolCallStream('fs_read_text_file', { path: join(cwd, 'app.py') })] },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const args = ['run', 'Read app.py', '--mcp-config', config, '--base-url', `${model.url}/v1`, '--cwd', cwd];
    const { code, out } = await cli(args);
    expect(code).toBe(0);
    expect(out).toContain('✓ fs_read_text_file');
    const [first, second] = model.requests.map((request) => request.body as { tools: unknown[]; messages: unknown[] });
    expect(first?.tools).toContainEqual({
      type: 'function',
      function: expect.objectContaining({
        name: 'fs_read_text_file',
        parameters: expect.objectContaining({ required: ['path'] }),
      }),
    });
    expect(second?.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', tool_call_id: 'call_m1', content: 'def add(a, b):\n    return a + b\n' }),
    );
    expect(pidsRunning([process.execPath, FILESYSTEM_SERVER, cwd])).toEqual([]);
  });

  it('refuses a server tool named like a built-in one, saying how to avoid it, and stops the server', async () => {
    const cwd = cliWorkspace();
    model = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
    const mcp = `"${process.execPath}" ${FILESYSTEM_SERVER} ${cwd}`;
    const { code, err } = await cli(['run', 'hi', '--mcp', mcp, '--base-url', `${model.url}/v1`, '--cwd', cwd]);
    expect(code).toBe(2);
    expect(err).toBe(
      "agent-harness run: MCP server 'secure-filesystem-server': a tool named 'read_file' is already registered; give the server a \"prefix\" in --mcp-config\n",
    );
    expect(model.requests).toHaveLength(0);
    expect(pidsRunning([process.execPath, FILESYSTEM_SERVER, cwd])).toEqual([]);
  });
});
