import type { AgentEvent } from '../core/agent-event.js';
import { excerpt, printable, printableLine } from '../core/printable.js';
import type { ToolSpinner } from './tool-spinner.js';

/** Where rendered output goes. */
export interface Output {
  write(text: string): void;
}

function oneLine(value: unknown, max = 80): string {
  return excerpt(typeof value === 'string' ? value : JSON.stringify(value), max);
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
        const label = `${printableLine(event.data.name)} ${oneLine(event.data.arguments)}`;
        if (spinner) {
          started.set(event.data.callId, label);
          spinner.start(event.data.callId, label);
        } else out.write(`→ ${label}\n`);
        return;
      }
      case 'tool_call_complete': {
        const detail = event.data.success ? oneLine(event.data.output ?? '') : oneLine(event.data.error ?? '');
        const label = started.get(event.data.callId) ?? printableLine(event.data.name);
        spinner?.finish(event.data.callId);
        out.write(`${event.data.success ? '✓' : '✗'} ${label}: ${detail}\n`);
        return;
      }
      case 'tool_approval_request':
        endText();
        out.write(
          `⏸ ${printableLine(event.data.name)} ${oneLine(event.data.arguments)}: waits for approval${event.data.rule === undefined ? '' : ` (rule ${printableLine(event.data.rule)})`}\n`,
        );
        return;
      case 'tool_approval_decision':
        out.write(
          event.data.approved
            ? `  approved: ${printableLine(event.data.name)}${event.data.arguments === undefined ? '' : ` with ${oneLine(event.data.arguments)}`}\n`
            : `  denied: ${printableLine(event.data.name)}: ${printableLine(event.data.reason ?? '')}\n`,
        );
        return;
      case 'budget_warning':
        endText();
        out.write(
          `! budget warning: ${printableLine(event.data.budget)} ${Math.round(event.data.used * 100)}% used; tools withheld\n`,
        );
        return;
      case 'agent_error':
        endText();
        spinner?.stop();
        out.write(`✗ stopped (${printableLine(event.data.reason)}): ${printableLine(event.data.message)}\n`);
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
