// Walk the real runtime: drive the agent (its machine and every effect) with a scripted model and
// scripted tools, crash it after every journal entry and resume from the store, fork it, and
// check each path's journal with the loop invariants, the walk's own rules and a rule of ours.
// Run: npm run example -- examples/check-the-runtime.ts
import { type RuntimeRule, type RuntimeScenario, walkRuntime } from 'agent-harness/testing';
import { contentText } from 'agent-harness/tools';

/** Our rule: no `deploy` result that ran (not an error) without an approval before it. */
const deployNeedsApproval: RuntimeRule = ({ journal }) => {
  const deploys = new Set<string>();
  const approved = new Set<string>();
  for (const [i, entry] of journal.entries()) {
    if (entry.type === 'assistant_message')
      for (const call of entry.toolCalls ?? []) if (call.name === 'deploy') deploys.add(call.callId);
    if (entry.type === 'approval_decision' && entry.approved) approved.add(entry.callId);
    if (entry.type === 'tool_result' && deploys.has(entry.callId) && !contentText(entry.content).startsWith('Error: '))
      if (!approved.has(entry.callId)) return `entry ${i}: ${entry.callId} (deploy) ran without an approval`;
  }
  return undefined;
};

const usage = { promptTokens: 0, completionTokens: 10, totalTokens: 10 };
const deployTwice = (permissions: Record<string, 'allow' | 'ask'>): RuntimeScenario => ({
  name: `deploy with shell: ${permissions.shell}`,
  tools: [{ name: 'deploy', kind: 'shell' }, { name: 'look' }],
  config: { permissions },
  script: [
    {
      kind: 'tools',
      text: [],
      calls: [
        { name: 'look', arguments: {} },
        { name: 'deploy', arguments: {} },
      ],
      usage,
    },
    { kind: 'answer', text: ['deployed'], usage },
  ],
});

// The policy asks: on every path (every crash and resume, every fork) a deploy waited for its approval.
const kept = await walkRuntime({ scenarios: [deployTwice({ shell: 'ask' })], rules: [deployNeedsApproval] });
console.log(`walked ${kept.paths} paths (${kept.entries} entries): ${kept.findings.length} findings`);

// Someone loosens the policy: the walk shows the path where our rule breaks.
const loose = await walkRuntime({ scenarios: [deployTwice({ shell: 'allow' })], rules: [deployNeedsApproval] });
const [finding] = loose.findings;
if (finding !== undefined) {
  console.log(`[${finding.rule}] ${finding.problem}`);
  for (const line of finding.path) console.log(`  ${line}`);
}
