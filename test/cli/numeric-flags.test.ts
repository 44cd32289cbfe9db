import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captured } from './support/cli-harness.js';

beforeEach(() => vi.stubEnv('OPENAI_API_KEY', 'sk-test'));
afterEach(() => vi.unstubAllEnvs());

async function usage(args: string[]) {
  const out = captured();
  const err = captured();
  const code = await main(args, out, err);
  return { code, out: out.text(), err: err.text() };
}

const WHOLE = 'must be a positive whole number';

describe('numeric flags take plain decimal numbers only, with our own one-line message (exit 2)', () => {
  it.each([
    ['--max-turns', '1e3', WHOLE],
    ['--max-turns', '0x10', WHOLE],
    ['--max-turns', '-1', WHOLE],
    ['--max-turns', '1.0', WHOLE],
    ['--max-turns', '+5', WHOLE],
    ['--max-turns', ' 5', WHOLE],
    ['--max-turns', '0', WHOLE],
    ['--max-turns', '99999999999999999999', WHOLE],
    ['--max-cost', '1e3', 'must be a positive decimal number'],
    ['--max-cost', '0x10', 'must be a positive decimal number'],
    ['--max-cost', '-1', 'must be a positive decimal number'],
    ['--max-cost', '-0.5', 'must be a positive decimal number'],
    ['--max-cost', 'Infinity', 'must be a positive decimal number'],
    ['--max-cost', '0', 'must be a positive decimal number'],
    ['--timeout', '-5s', 'must be a positive duration'],
    ['--timeout', '1e3', 'must be a positive duration'],
    ['--port', '-1', 'must be a number from 0 to 65535'],
    ['--port', '0x10', 'must be a number from 0 to 65535'],
    ['--port', '65536', 'must be a number from 0 to 65535'],
  ])('run %s %s', async (flag, value, message) => {
    // A value taken by mistake would start a run: against a closed port, it ends at once.
    const inspect = flag === '--port' ? ['--inspect'] : [];
    const { code, out, err } = await usage(['run', 'hi', '--base-url', 'http://127.0.0.1:9', ...inspect, flag, value]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.startsWith(`agent-harness run: ${flag} ${message}`)).toBe(true);
    expect(err.endsWith(`, got '${value}'\n`)).toBe(true);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });

  it.each([
    ['inspect', 'run.jsonl'],
    ['demo', '--inspect'],
  ])('%s --port -1', async (...command) => {
    const { code, err } = await usage([...command, '--port', '-1']);
    expect(code).toBe(2);
    expect(err).toBe(`agent-harness ${command[0]}: --port must be a number from 0 to 65535, got '-1'\n`);
  });

  it.each([
    ['demo', '--port', '4400'],
    ['demo', '--port=4400'],
    ['demo', '--host', '0.0.0.0'],
    ['demo', '--allow-host', 'box.lan'],
    ['run', 'hi', '--port', '4400'],
  ])('%s %s %s without --inspect is bad usage (it was silently ignored)', async (...command) => {
    const { code, out, err } = await usage(command);
    expect(code).toBe(2);
    expect(out).toBe('');
    const flag = (command.find((arg) => arg.startsWith('--')) ?? '').replace(/=.*$/, '');
    expect(err).toBe(
      `agent-harness ${command[0]}: ${flag} chooses where the inspector listens: it goes with --inspect\n`,
    );
  });

  it('accepts the same values written as --flag=value', async () => {
    const { code, err } = await usage(['run', 'hi', '--max-turns=-1']);
    expect(code).toBe(2);
    expect(err).toBe("agent-harness run: --max-turns must be a positive whole number, got '-1'\n");
  });
});
