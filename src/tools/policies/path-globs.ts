import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { Permission, PolicyAnswer, PolicyContext, PolicyFunction } from '../../core/approval-types.js';
import type { ToolCall } from '../../core/messages.js';

/** Globs per permission, for {@link pathGlobs}. */
export interface PathGlobOptions {
  /** Paths (relative to `cwd`, `/`-separated) that may be used without asking: `src/**`. */
  readonly allow?: readonly string[];
  /** Paths that are refused: `.env`, `**\/*.pem`. */
  readonly deny?: readonly string[];
  /** What a path no glob matches gets. Default `ask`. */
  readonly otherwise?: Permission;
  /** The argument that holds the path. Default `path` (every workspace file tool's). */
  readonly field?: string;
}

/**
 * A policy for file tools by the path they name. The path is resolved against the run's `cwd`:
 * one that leaves it (`../x`, an absolute path elsewhere) is denied; then `deny` globs beat
 * `allow` globs (picomatch, dotfiles included). A call without the field means `cwd` itself
 * (`.`); one whose field is not a string asks. Paths are compared as written, not through
 * symbolic links (the tools themselves refuse links that leave `cwd`).
 *
 * @example permissions: { write_file: pathGlobs({ allow: ['src/**'], deny: ['**\/.env'] }) }
 */
export function pathGlobs(options: PathGlobOptions): PolicyFunction {
  const field = options.field ?? 'path';
  const deny = picomatch([...(options.deny ?? [])], { dot: true });
  const allow = picomatch([...(options.allow ?? [])], { dot: true });
  const hasDeny = (options.deny ?? []).length > 0;
  const hasAllow = (options.allow ?? []).length > 0;
  const otherwise = options.otherwise ?? 'ask';
  return function pathGlobs(call: ToolCall, ctx: PolicyContext): PolicyAnswer {
    const value = typeof call.arguments === 'object' ? (call.arguments[field] ?? '.') : undefined;
    if (typeof value !== 'string') return 'ask';
    const inside = relative(ctx.cwd, resolve(ctx.cwd, value));
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      return { deny: `the path '${value}' is outside the workspace` };
    }
    const path = inside === '' ? '.' : inside.split(sep).join('/');
    if (hasDeny && deny(path)) return { deny: `the path '${path}' matches a denied glob` };
    if (hasAllow && allow(path)) return 'allow';
    return otherwise;
  };
}
