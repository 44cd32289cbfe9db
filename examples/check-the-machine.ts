// The loop as data: draw the machine, then explore every path of it within a budget and check
// the loop's invariants on each (the same check this repository's tests run).
// Run: npm run example -- examples/check-the-machine.ts
import { agentMachine } from 'agent-harness';
import { machineGraph, toMermaid } from 'agent-harness/diagram';
import { modelCheckAgentMachine } from 'agent-harness/testing';

const graph = machineGraph(agentMachine);
console.log(`states: ${graph.states.map((state) => state.id).join(', ')}`);
console.log(toMermaid(agentMachine).split('\n').slice(0, 4).join('\n'), '\n  …');

const report = modelCheckAgentMachine({ budget: { maxTurns: 3, softLimitRatio: 0.6 }, maxToolCalls: 2 });
console.log(`explored ${report.states} states and ${report.transitions} transitions`);
console.log(`stop reasons reached: ${[...report.stopReasons].sort().join(', ')}`);
console.log(`violations: ${report.violations.length}`);
