// Human approval on a scripted model: write and shell tools ask first. The first run approves
// the write, denies the command, then waits on a second write and is suspended; the session is
// saved, loaded as another process would, and resumed with the decision given up front.
// Run: npx tsx examples/approval.ts

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Config, ScriptedClient, Session, StreamEvent, ToolRegistry, workspaceTools } from 'agent-harness';
import { type JsonObject, permissionDefaults } from 'agent-harness/tools';

const usage = { promptTokens: 100, completionTokens: 20, totalTokens: 120 };
const call = (callId: string, name: string, args: JsonObject) =>
  StreamEvent.toolCallComplete({ callId, name, arguments: args });

const workspace = mkdtempSync(join(tmpdir(), 'approval-'));
try {
  // read tools run; write, shell, network (and other) tools ask.
  const config = new Config({ cwd: workspace, permissions: permissionDefaults.interactive });
  const tools = () => new ToolRegistry(config).register(...workspaceTools(config));

  const first = new ScriptedClient([
    [
      call('w1', 'write_file', { path: 'notes.md', content: '# Notes\n' }),
      call('s1', 'shell', { command: 'rm -rf build' }),
      call('l1', 'list_dir', {}),
      StreamEvent.messageComplete(usage),
    ],
    [call('w2', 'write_file', { path: 'todo.md', content: '- ship it\n' }), StreamEvent.messageComplete(usage)],
  ]);
  const agent = new Agent(config, { client: first, tools: tools() });
  for await (const event of agent.run('Set up notes and a todo list.')) {
    if (event.type === 'tool_approval_request') {
      const { callId, name } = event.data;
      console.log(`asked: ${name} (${callId})`);
      if (name === 'shell') agent.deny(callId, 'no commands today');
      else if (callId === 'w1') agent.approve(callId);
      // w2: nobody answers now; suspend once the run waits only for it.
      else setTimeout(() => agent.suspend(), 0);
    }
    if (event.type === 'tool_call_complete') {
      console.log(`${event.data.name} -> ${event.data.success ? event.data.output : event.data.error}`);
    }
    if (event.type === 'agent_error') console.log(`stopped: ${event.data.reason}`);
  }
  const saved = JSON.stringify(agent.session.toJSON());

  // Later, elsewhere: load the session and resume with the decision given up front.
  const second = new ScriptedClient([
    [StreamEvent.textDelta('Notes and todo list are ready.'), StreamEvent.messageComplete(usage)],
  ]);
  const session = Session.fromJSON(JSON.parse(saved), config);
  console.log(
    `pending after load: ${session
      .pendingToolCalls()
      .map((c) => c.callId)
      .join(', ')}`,
  );
  const resumed = new Agent(config, { client: second, tools: tools(), session });
  for await (const event of resumed.resume({ approvals: { w2: 'approve' } })) {
    if (event.type === 'tool_call_complete') console.log(`${event.data.name} -> ${event.data.output}`);
    if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
  }
  console.log(`todo.md: ${readFileSync(join(workspace, 'todo.md'), 'utf8').trim()}`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
