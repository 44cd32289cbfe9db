import type { AgentEvent } from '../core/agent-event.js';

/** Where rendered output goes. */
export interface Output {
  write(text: string): void;
}

function oneLine(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Renders events for a person: streamed text as it comes, one line per tool call start and
 * outcome, warnings and the final error. Returns a function to feed events to.
 */
export function humanRenderer(out: Output): (event: AgentEvent) => void {
  let midText = false;
  const endText = (): void => {
    if (midText) out.write('\n');
    midText = false;
  };
  return (event) => {
    switch (event.type) {
      case 'text_delta':
        out.write(event.data.content);
        midText = true;
        return;
      case 'text_complete':
        endText();
        return;
      case 'tool_call_start':
        endText();
        out.write(`→ ${event.data.name} ${oneLine(event.data.arguments)}\n`);
        return;
      case 'tool_call_complete': {
        const detail = event.data.success ? oneLine(event.data.output ?? '') : oneLine(event.data.error ?? '');
        out.write(`${event.data.success ? '✓' : '✗'} ${event.data.name}: ${detail}\n`);
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
        out.write(`✗ stopped (${event.data.reason}): ${event.data.message}\n`);
        return;
      case 'agent_start':
      case 'agent_end':
        endText();
        return;
    }
  };
}
