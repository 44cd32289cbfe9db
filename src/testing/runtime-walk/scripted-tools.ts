import { z } from 'zod';
import type { Config } from '../../config/config.js';
import type { JsonValue } from '../../core/messages.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolRegistry } from '../../tools/registry.js';
import { defineTool, type ToolLike } from '../../tools/tool.js';

/** A tool of a runtime walk: deterministic, and every execution is logged. */
export interface ScriptedToolSpec {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does to the world (decides the policy rule and the defaults below). Default `read`. */
  readonly kind?: ToolKind;
  /** Whether a call left in doubt may run again on resume. Default: `kind === 'read'`. */
  readonly idempotent?: boolean;
  /** Whether it may run beside other safe calls. Default: `kind === 'read'`. */
  readonly concurrencySafe?: boolean;
  /**
   * Event-loop turns (`setImmediate`) it takes before it settles (default 0): a fixed order of
   * completion, with no clock, that can differ from the model's order of the calls.
   */
  readonly ticks?: number;
  /** Its output for a call (default `<name> ok`). */
  readonly output?: (args: Readonly<Record<string, JsonValue>>) => string;
}

/** One execution of a scripted tool, as the walk saw it. */
export interface ToolExecution {
  /** Whose tool ran: `main` (the session's agents, handoff targets too) or the sub-agent's name. */
  readonly owner: string;
  readonly callId: string;
  readonly name: string;
  /** `start` when `execute` was entered, `end` when it returned. */
  readonly phase: 'start' | 'end';
}

/** Arguments of a scripted tool: any object; a string `x` makes the call invalid (its schema wants a number). */
const schema = z.object({ x: z.number().optional() }).catchall(z.unknown());

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The tool `spec` describes, logging each execution to `log`. */
export function scriptedTool(spec: ScriptedToolSpec, log: ToolExecution[], owner = 'main'): ToolLike<typeof schema> {
  const kind = spec.kind ?? ToolKind.READ;
  return defineTool({
    name: spec.name,
    description: `scripted tool ${spec.name}`,
    kind,
    schema,
    ...(spec.idempotent === undefined ? {} : { idempotent: spec.idempotent }),
    ...(spec.concurrencySafe === undefined ? {} : { concurrencySafe: spec.concurrencySafe }),
    execute: async ({ callId, params }) => {
      log.push({ owner, callId, name: spec.name, phase: 'start' });
      for (let i = 0; i < (spec.ticks ?? 0); i++) await tick();
      log.push({ owner, callId, name: spec.name, phase: 'end' });
      return spec.output?.(params as Record<string, JsonValue>) ?? `${spec.name} ok`;
    },
  });
}

/** A registry of scripted tools (plus `extra` tools, e.g. handoff or agent tools), logging to `log` as `owner`'s. */
export function scriptedRegistry(
  config: Config,
  specs: readonly ScriptedToolSpec[],
  log: ToolExecution[],
  { extra = [], owner = 'main' }: { readonly extra?: readonly ToolLike[]; readonly owner?: string } = {},
): ToolRegistry {
  const registry = new ToolRegistry(config);
  for (const spec of specs) registry.register(scriptedTool(spec, log, owner));
  for (const tool of extra) registry.register(tool);
  return registry;
}

/** Whether a call of tool `spec` left in doubt may run again (its declared idempotency). */
export function specIdempotent(spec: ScriptedToolSpec): boolean {
  return spec.idempotent ?? (spec.kind ?? ToolKind.READ) === ToolKind.READ;
}
