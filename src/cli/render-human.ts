import type { AgentEvent } from '../core/agent-event.js';
import type { ToolSpinner } from './tool-spinner.js';

/** Where rendered output goes. */
export interface Output {
  write(text: string): void;
}

// C0 and C1 control characters other than tab and newline: model text and tool output must not
// drive the terminal (escape sequences can rewrite the screen or the title).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text safe to print on a terminal: control characters removed, tabs and newlines kept. */
export function printable(text: string): string {
  return text.replace(CONTROL, '');
}

function oneLine(value: unknown, max = 80): string {
  const text = printable(typeof value === 'string' ? value : JSON.stringify(value));
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Options of {@link humanRenderer}. */
export interface HumanRendererOptions {
  /**
   * On a terminal: show running calls on a spinner line, and print each call as one line
   * once it settled. Without it, a call prints a start line and an outcome line.
   */
  readonly spinner?: ToolSpinner;
}

/**
 * Renders events for a person: streamed text as it comes, tool calls (see
 * {@link HumanRendererOptions.spinner}), warnings and the final error. Returns a function to
 * feed events to.
 */
export function humanRenderer(output: Output, options: HumanRendererOptions = {}): (event: AgentEvent) => void {
  const { spinner } = options;
  const out: Output = spinner
    ? {
        write: (text) => {
          spinner.clear();
          output.write(text);
          spinner.draw();
        },
      }
    : output;
  const started = new Map<string, string>();
  let midText = false;
  const endText = (): void => {
    if (midText) out.write('\n');
    midText = false;
  };
  return (event) => {
    switch (event.type) {
      case 'text_delta':
        out.write(printable(event.data.content));
        midText = true;
        return;
      case 'text_complete':
        endText();
        return;
      case 'tool_call_start': {
        endText();
        const label = `${event.data.name} ${oneLine(event.data.arguments)}`;
        if (spinner) {
          started.set(event.data.callId, label);
          spinner.start(event.data.callId, label);
        } else out.write(`→ ${label}\n`);
        return;
      }
      case 'tool_call_complete': {
        const detail = event.data.success ? oneLine(event.data.output ?? '') : oneLine(event.data.error ?? '');
        const label = started.get(event.data.callId) ?? event.data.name;
        spinner?.finish(event.data.callId);
        out.write(`${event.data.success ? '✓' : '✗'} ${label}: ${detail}\n`);
        return;
      }
      case 'budget_warning':
        endText();
        out.write(
          `! budget warning: ${event.data.budget} ${Math.round(event.data.used * 100)}% used; tools withheld\n`,
        );
        return;
      case 'agent_error':
        endText();
        spinner?.stop();
        out.write(`✗ stopped (${event.data.reason}): ${printable(event.data.message)}\n`);
        return;
      case 'agent_start':
        endText();
        return;
      case 'agent_end':
        endText();
        spinner?.stop();
        return;
    }
  };
}
