// An agent on a scripted model reads files through a real MCP server (the filesystem server,
// started over stdio on a temporary folder), then the server is stopped. Offline.
// Run: npm run example -- examples/mcp-filesystem.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Config, connectMcp, ScriptedClient, StreamEvent, ToolRegistry } from 'agent-harness';

const folder = mkdtempSync(join(tmpdir(), 'mcp-example-'));
writeFileSync(join(folder, 'todo.md'), '- water the plants\n- call Ada\n');
// The server as installed locally (`npx -y @modelcontextprotocol/server-filesystem` works too, online).
const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

const files = await connectMcp({ command: process.execPath, args: [server, folder], name: 'files', prefix: 'fs' });
const pid = files.pid as number;
try {
  console.log(
    `${files.name}: ${files.tools.length} tools, e.g. ${files.tools
      .map((tool) => tool.name)
      .slice(0, 3)
      .join(', ')}`,
  );
  const config = new Config({ cwd: folder, budget: { maxTurns: 4 } });
  const registry = new ToolRegistry(config).register(...files.tools);
  const usage = { promptTokens: 50, completionTokens: 10, totalTokens: 60 };
  const client = new ScriptedClient([
    [
      StreamEvent.toolCallComplete({ callId: 'l1', name: 'fs_list_directory', arguments: { path: folder } }),
      StreamEvent.toolCallComplete({
        callId: 'r1',
        name: 'fs_read_text_file',
        arguments: { path: join(folder, 'todo.md') },
      }),
      StreamEvent.messageComplete(usage),
    ],
    [StreamEvent.textDelta('Two things to do: water the plants and call Ada.'), StreamEvent.messageComplete(usage)],
  ]);
  const agent = new Agent(config, { client, tools: registry });
  for await (const event of agent.run('What is on my list?')) {
    if (event.type === 'tool_call_complete') {
      const text = event.data.success ? event.data.output : `Error: ${event.data.error}`;
      console.log(`  ${event.data.name} -> ${JSON.stringify(text)}`);
    }
    if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
  }
} finally {
  await files.close();
  rmSync(folder, { recursive: true, force: true });
}
const running = (() => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
})();
console.log(`server process ${running ? 'still running' : 'stopped'}`);
