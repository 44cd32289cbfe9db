import type { ToolLike } from './tool.js';

/** A value kept on a tool under a symbol of its own: what a tool is, beyond its definition. */
export interface ToolTag<T> {
  /** Keeps `value` on `tool` (not enumerable, not writable); returns the tool. */
  mark<U extends object>(tool: U, value: T): U;
  /** The value kept on `tool`; undefined for a tool without one. */
  of(tool: ToolLike | undefined): T | undefined;
}

/** A tag whose symbol is `Symbol.for(key)`, so copies of the package agree on it. */
export function toolTag<T>(key: string): ToolTag<T> {
  const symbol = Symbol.for(key);
  return {
    mark(tool, value) {
      Object.defineProperty(tool, symbol, { value });
      return tool;
    },
    of: (tool) => (tool as { readonly [symbol]?: T } | undefined)?.[symbol],
  };
}
