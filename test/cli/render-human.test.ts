import { describe, expect, it } from 'vitest';
import { humanRenderer } from '../../src/cli/render-human.js';
import { printable } from '../../src/core/printable.js';
import { AgentEvent, ToolResult } from '../../src/index.js';
import { captured } from './support/cli-harness.js';

describe('humanRenderer', () => {
  it('never passes terminal escape sequences from model text or tool output through: each control shows as a marker', () => {
    const out = captured();
    const render = humanRenderer(out);
    render(AgentEvent.textDelta('hi \u001b]0;pwned\u0007there\u009b2J\n'));
    render(AgentEvent.toolCallComplete({ callId: 'c', name: 'read_file' }, ToolResult.success('a\u001b[31mred')));
    expect(out.text()).toBe('hi ⟨U+001B⟩]0;pwned⟨U+0007⟩there⟨U+009B⟩2J\n✓ read_file: a⟨U+001B⟩[31mred\n');
    expect(printable('tab\tand\nnewline')).toBe('tab\tand\nnewline');
  });

  it('shows a hostile tool name with its hidden characters, so it cannot pass for a real tool', () => {
    const out = captured();
    const render = humanRenderer(out);
    // NUL, a backspace and a concealing escape: once dropped, each of these read as `write_file`.
    for (const name of ['wri\u0000te_file', 'writ\bXe_file', 'write_file\u001b[8m_evil', 'write\u200f_file']) {
      render(AgentEvent.toolCallStart({ callId: 'c', name, arguments: {} }));
      render(AgentEvent.toolCallComplete({ callId: 'c', name }, ToolResult.success('ok')));
    }
    const lines = out.text().split('\n');
    expect(lines).not.toContain('→ write_file {}');
    expect(lines).not.toContain('✓ write_file: ok');
    expect(out.text()).toContain('wri⟨U+0000⟩te_file');
    expect(out.text()).toContain('writ⟨U+0008⟩Xe_file');
    expect(out.text()).toContain('write_file⟨U+001B⟩[8m_evil');
    expect(out.text()).toContain('write⟨U+200F⟩_file');
  });
});
