import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { toDot } from '../../src/diagram/dot.js';
import { toMermaid } from '../../src/diagram.js';
import { agentMachine } from '../../src/index.js';

function capture() {
  let text = '';
  return {
    write: (chunk: string) => {
      text += chunk;
    },
    text: () => text,
  };
}

async function run(...argv: string[]) {
  const out = capture();
  const err = capture();
  const code = await main(['graph', ...argv], out, err);
  return { code, out: out.text(), err: err.text() };
}

describe('agent-harness graph', () => {
  it('prints Mermaid by default', async () => {
    expect(await run()).toEqual({ code: 0, out: toMermaid(agentMachine), err: '' });
  });

  it('prints DOT and JSON on request', async () => {
    expect((await run('--format', 'dot')).out).toBe(toDot(agentMachine));
    const json = await run('--format=json');
    expect(JSON.parse(json.out).initial).toBe('awaitingModel');
  });

  it('refuses an unknown format as bad usage, naming it', async () => {
    const result = await run('--format', 'png');
    expect(result.code).toBe(2);
    expect(result.err).toContain("unknown --format 'png'");
  });
});
