import type { z } from 'zod';

/** Whether a value is a zod 4 schema (classic or mini): zod 4 keeps its internals under `_zod`. */
export function isZod4Schema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Why `value`, given as `what` (`tool 'x' schema`, `run() option output`), cannot be used as a
 * schema, or undefined when it is a zod 4 schema. zod 3 schemas (also `zod/v3` of zod 4) have no
 * JSON Schema conversion the harness can use.
 */
export function zodSchemaProblem(value: unknown, what: string): string | undefined {
  if (isZod4Schema(value)) return undefined;
  const zod3 = typeof value === 'object' && value !== null && '_def' in value;
  return zod3
    ? `${what} is a zod 3 schema; agent-harness needs zod 4: install zod@^4 and import { z } from 'zod' (not 'zod/v3')`
    : `${what} must be a zod 4 schema`;
}
