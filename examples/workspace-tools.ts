// The workspace tools on a scripted model, in a temporary folder: write a file, edit it, search it
// and run a command, then answer. Every call goes through the real tools; nothing leaves the folder.
// Run: npx tsx examples/workspace-tools.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Config, ScriptedClient, StreamEvent, ToolRegistry, workspaceTools } from 'agent-harness';
import type { JsonObject } from 'agent-harness/tools';

const usage = { promptTokens: 100, completionTokens: 20, totalTokens: 120 };
const call = (callId: string, name: string, args: JsonObject) =>
  StreamEvent.toolCallComplete({ callId, name, arguments: args });

const client = new ScriptedClient([
  [
    call('w1', 'write_file', {
      path: 'src/greet.ts',
      content: "export function greet(name: string) {\n  return 'Hello, ' + name;\n}\n",
    }),
    StreamEvent.messageComplete(usage),
  ],
  [call('e1', 'edit_file', { path: 'src/greet.ts', old: 'Hello', new: 'Bonjour' }), StreamEvent.messageComplete(usage)],
  [
    // A read tool and a command in one turn; an escape attempt is refused like any bad call.
    call('g1', 'grep', { pattern: 'Bonjour', path: 'src' }),
    call('s1', 'shell', { command: 'echo "lines: $(wc -l < src/greet.ts | tr -d " ")"; exit 2' }),
    call('r1', 'read_file', { path: '../outside.txt' }),
    StreamEvent.messageComplete(usage),
  ],
  [StreamEvent.textDelta('greet() now says Bonjour.'), StreamEvent.messageComplete(usage)],
]);

const workspace = mkdtempSync(join(tmpdir(), 'workspace-tools-'));
try {
  const config = new Config({ cwd: workspace, maxTurns: 6 });
  const registry = new ToolRegistry(config);
  for (const tool of workspaceTools(config)) registry.register(tool);
  const agent = new Agent(config, { client, tools: registry });

  for await (const event of agent.run('Make greet() say Bonjour and check it.')) {
    if (event.type === 'tool_call_complete') {
      const text = event.data.success ? event.data.output : `Error: ${event.data.error}`;
      console.log(`${event.data.name} -> ${text}`);
    }
    if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
    if (event.type === 'agent_error') console.log(`stopped: ${event.data.reason}: ${event.data.message}`);
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
