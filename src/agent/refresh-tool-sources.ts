import { errorMessage } from '../core/errors.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { MachineDeps } from './run-handle.js';

/** A tool source's refresh failed: the run ends with `mcp_error` (the model did nothing wrong). */
export class ToolSourceFailure extends Error {
  constructor(cause: unknown) {
    super(`the tool sources could not be refreshed: ${errorMessage(cause)}`, { cause });
    this.name = 'ToolSourceFailure';
  }
}

/**
 * Applies the tool lists that changed (MCP `list_changed`) to the agent's registry, between
 * turns: each source's announced lists are awaited first, so a list changed during the last
 * turn's calls is offered on this request. A refresh that throws (or a `listed()` that rejects)
 * is a {@link ToolSourceFailure}.
 */
export async function refreshToolSources(sources: MachineDeps['toolSources'], registry: ToolRegistry): Promise<void> {
  for (const source of sources) {
    try {
      await source.listed?.();
      source.refresh(registry);
    } catch (error) {
      throw new ToolSourceFailure(error);
    }
  }
}
