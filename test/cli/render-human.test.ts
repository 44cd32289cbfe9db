import { describe, expect, it } from 'vitest';
import { humanRenderer } from '../../src/cli/render-human.js';
import { printable } from '../../src/core/printable.js';
import { AgentEvent, ToolResult } from '../../src/index.js';
import { captured } from './support/cli-harness.js';

describe('humanRenderer', () => {
  it('never passes terminal escape sequences from model text or tool output through', () => {
    const out = captured();
    const render = humanRenderer(out);
    render(AgentEvent.textDelta('hi \u001b]0;pwned\u0007there\u009b2J\n'));
    render(AgentEvent.toolCallComplete({ callId: 'c', name: 'read_file' }, ToolResult.success('a\u001b[31mred')));
    expect(out.text()).toBe('hi there\n✓ read_file: ared\n');
    expect(printable('tab\tand\nnewline')).toBe('tab\tand\nnewline');
  });
});
