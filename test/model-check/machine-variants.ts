import { createMachine, enqueueActions } from 'xstate';
import { agentMachine } from '../../src/index.js';

/** A state's configuration, loosely typed: variants only move, drop or add entries. */
export type StateConfig = Record<string, unknown>;
type States = Record<string, StateConfig>;

/**
 * A copy of `agentMachine` with some states' configuration replaced: how a test plants a bug
 * that `.provide()` cannot (a dropped effect, transitions in another order, an extra action).
 * `edit` gets each state's configuration and returns the replacement for the ones it changes.
 */
export function variant(edit: (states: Readonly<States>) => States): typeof agentMachine {
  const config = agentMachine.config as unknown as { states: States };
  const states = { ...config.states, ...edit(config.states) };
  return createMachine(
    { ...(agentMachine.config as object), states } as never,
    agentMachine.implementations as never,
  ) as unknown as typeof agentMachine;
}

/** The list of actions (or transitions) under `key` of a state, as an array. */
export function listOf(state: StateConfig | undefined, key: string): unknown[] {
  const value = state?.[key];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The transitions of a state for an event, as an array. */
export function on(state: StateConfig | undefined, event: string): StateConfig[] {
  const handlers = (state?.on ?? {}) as Record<string, unknown>;
  const value = handlers[event];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as StateConfig[];
}

/** A state with its handler for `event` replaced. */
export function withOn(state: StateConfig | undefined, event: string, handler: unknown): StateConfig {
  return { ...state, on: { ...((state?.on ?? {}) as object), [event]: handler } };
}

/** A list of actions without the named ones. */
export function without(actions: readonly unknown[], ...names: string[]): unknown[] {
  return actions.filter((action) => !(typeof action === 'string' && names.includes(action)));
}

type Collect = (args: { enqueue: Enqueue } & Record<string, unknown>, params: unknown) => void;
type Enqueue = ((action: unknown) => void) & Record<string, unknown>;

/** The type of an action: its name, or its `type` (a parameterized effect, a built-in action). */
function actionName(action: unknown): string | undefined {
  return typeof action === 'string' ? action : (action as { type?: string } | undefined)?.type;
}

/**
 * A transition's actions without the effect named `effect`, whether the transition names it
 * itself or enqueues it from an `enqueueActions` action: how a test drops one journal or report
 * call from a transition.
 */
export function withoutEffect(actions: readonly unknown[], effect: string): unknown[] {
  return actions
    .filter((action) => actionName(action) !== effect)
    .map((action) => ((action as { collect?: Collect }).collect === undefined ? action : notEnqueuing(action, effect)));
}

/** An `enqueueActions` action of the machine that no longer enqueues the effect named `effect`. */
function notEnqueuing(action: unknown, effect: string): unknown {
  const collect = (action as { collect: Collect }).collect;
  return enqueueActions(((args: { enqueue: Enqueue } & Record<string, unknown>, params: unknown) => {
    const { enqueue } = args;
    const filtered = Object.assign((queued: unknown) => {
      if (actionName(queued) !== effect) enqueue(queued);
    }, enqueue);
    collect({ ...args, enqueue: filtered }, params);
  }) as never);
}

/**
 * A transition's action with the effect named `effect` given other params: `change` maps the
 * params the machine gives it, whether the transition names the effect itself or enqueues it
 * from an `enqueueActions` action. How a test plants a bug in what an effect records.
 */
export function mappingEffect(action: unknown, effect: string, change: (params: unknown) => unknown): unknown {
  const collect = (action as { collect?: Collect }).collect;
  if (collect === undefined) return action;
  return enqueueActions(((args: { enqueue: Enqueue } & Record<string, unknown>, params: unknown) => {
    const { enqueue } = args;
    const mapped = Object.assign((queued: unknown) => {
      const { params: given } = (queued ?? {}) as { params?: unknown };
      enqueue(actionName(queued) === effect ? { ...(queued as object), params: change(given) } : queued);
    }, enqueue);
    collect({ ...args, enqueue: mapped }, params);
  }) as never);
}
