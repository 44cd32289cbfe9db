import { describe, expect, it } from 'vitest';
import { ToolSpinner } from '../../src/cli/tool-spinner.js';
import { captured } from './support/cli-harness.js';

function manualTicker() {
  const clock = { tick: (): void => {}, running: false };
  const ticker = (tick: () => void) => {
    clock.tick = tick;
    clock.running = true;
    return () => {
      clock.running = false;
    };
  };
  return { clock, ticker };
}

describe('ToolSpinner', () => {
  it('animates one status line for the running calls and stops when none is left', () => {
    const out = captured();
    const { clock, ticker } = manualTicker();
    const spinner = new ToolSpinner(out, ticker);
    spinner.start('c1', 'read_file {"path":"a"}');
    spinner.start('c2', 'read_file {"path":"b"}');
    clock.tick();
    expect(out.text()).toContain('⠙ read_file {"path":"a"} (+1 more)');
    spinner.finish('c1');
    spinner.finish('c2');
    expect(clock.running).toBe(false);
  });

  it('erases its line before other output, and only when drawn', () => {
    const out = captured();
    const spinner = new ToolSpinner(out, manualTicker().ticker);
    spinner.clear();
    expect(out.text()).toBe('');
    spinner.start('c1', 'slow_tool {}');
    spinner.clear();
    expect(out.text()).toBe('\r\u001b[2K⠋ slow_tool {}\r\u001b[2K');
  });
});
