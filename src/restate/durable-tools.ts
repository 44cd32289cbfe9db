import type { Config } from '../config/config.js';
import { IN_DOUBT_ERROR, ToolResult } from '../core/tool-result.js';
import { type InvokeOptions, ToolRegistry } from '../tools/registry.js';
import { untilAborted } from './durable-client.js';
import type { DurableSteps } from './durable-steps.js';

/**
 * The agent's tools, each call one durable step: a call recorded by an earlier execution is not
 * run again. A call that an earlier execution started (its `tool_started` is stored) but did not
 * finish is in doubt, as on an in-process resume (SPEC §8): it runs again only if its tool is
 * idempotent, and is otherwise answered with {@link IN_DOUBT_ERROR}.
 */
export class DurableTools extends ToolRegistry {
  constructor(
    config: Config,
    private readonly inner: ToolRegistry,
    private readonly steps: DurableSteps,
    private readonly inDoubt: ReadonlySet<string>,
  ) {
    super(config);
    for (const name of inner.names()) {
      const tool = inner.get(name);
      if (tool !== undefined) this.register(tool);
    }
  }

  override invoke(name: string, params: unknown, options: InvokeOptions = {}): Promise<ToolResult> {
    const callId = options.callId ?? '';
    const step = this.steps.run(`tool ${callId}`, () =>
      this.inDoubt.has(callId) && !this.inner.isIdempotent(name)
        ? ToolResult.error(IN_DOUBT_ERROR)
        : this.inner.invoke(name, params, options),
    );
    return untilAborted(step, options.signal).catch((error: unknown) =>
      ToolResult.error(`aborted: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
