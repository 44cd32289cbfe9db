import { lstat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import { resolveInWorkspace } from '../workspace.js';
import { displayPath, printable, workspaceRoot } from './confine.js';
import { type WalkStats, walkFiles } from './walk.js';

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob relative to the workspace, e.g. "src/**/*.ts" or "**/*.md" (* does not match a leading dot).'),
});

/** Matches listed at most; the rest are counted in a marker. */
export const MAX_GLOB_MATCHES = 500;
/** Folder entries looked at, at most, per call. */
export const MAX_WALK_ENTRIES = 200_000;

/** Why a glob pattern may not be used, or `undefined`. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.includes('\0')) return 'pattern must not contain NUL';
  if (pattern.startsWith('/') || /^[A-Za-z]:/.test(pattern)) return `pattern '${pattern}' is absolute`;
  if (pattern.split(/[\\/]/).includes('..')) return `pattern '${pattern}' is outside the workspace`;
  return undefined;
}

/** Options of {@link GlobTool}. */
export interface GlobToolOptions {
  /** Matches listed at most. Default {@link MAX_GLOB_MATCHES}. */
  readonly maxMatches?: number;
  /** Folder entries looked at, at most. Default {@link MAX_WALK_ENTRIES}. */
  readonly maxEntries?: number;
}

/**
 * Finds workspace files whose relative path matches a glob (picomatch syntax). Skips what
 * `.gitignore` files exclude (nested ones too) and `.git`; symlinks are not followed.
 */
export class GlobTool extends Tool<typeof schema> {
  readonly name = 'glob';
  readonly description =
    'Find files in the workspace whose path matches a glob such as "src/**/*.ts". Returns relative paths, sorted. ' +
    `Files excluded by .gitignore and the .git folder are skipped; at most ${MAX_GLOB_MATCHES} paths are listed.`;
  readonly kind = ToolKind.READ;
  readonly schema = schema;
  private readonly maxMatches: number;
  private readonly maxEntries: number;

  constructor(config?: Config, options: GlobToolOptions = {}) {
    super(config);
    this.maxMatches = options.maxMatches ?? MAX_GLOB_MATCHES;
    this.maxEntries = options.maxEntries ?? MAX_WALK_ENTRIES;
  }

  async execute({ params, cwd, signal }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const problem = patternProblem(params.pattern);
    if (problem !== undefined) return ToolResult.error(problem);
    const pattern = params.pattern.replace(/^(\.\/)+/, '');
    const workspace = this.config?.cwd ?? cwd;
    const root = await workspaceRoot(workspace);
    const scan = picomatch.scan(pattern);
    if (!scan.isGlob) return this.literal(workspace, pattern);
    // Walk only below the pattern's literal folder prefix (`src` of `src/**/*.ts`).
    const base = scan.base;
    const where = await resolveInWorkspace(workspace, base === '' ? '.' : base, this.config?.protectedPaths);
    if (!where.ok) return ToolResult.error(where.problem);
    const none = noMatch(pattern);
    if (!(await lstat(where.path).catch(() => undefined))?.isDirectory()) return none;

    const folder = displayPath(root, where.path);
    const walked = folder === '.' ? '' : folder;
    const matches = picomatch(pattern);
    const found: string[] = [];
    const stats: WalkStats = { entries: 0, capped: false };
    for await (const file of walkFiles({ root, folder: walked, maxEntries: this.maxEntries, signal }, stats)) {
      // Matched as the model named it: through `base`, even if that is a symlink to a folder inside.
      const inside = walked === '' ? file.relative : file.relative.slice(walked.length + 1);
      const named = base === '' ? inside : `${base}/${inside}`;
      if (matches(named)) found.push(named);
    }
    if (found.length === 0 && !stats.capped) return none;
    found.sort();
    const lines = found.slice(0, this.maxMatches).map(printable);
    const more = found.length - lines.length;
    if (more > 0) lines.push(`[${more.toLocaleString('en-US')} more matches not shown; narrow the pattern]`);
    if (stats.capped) {
      lines.push(`[stopped after looking at ${this.maxEntries.toLocaleString('en-US')} entries; narrow the pattern]`);
    }
    return ToolResult.success(lines.join('\n'));
  }

  /** A pattern without wildcards names one file: listed if it is a file, ignored or not (but never in `.git`). */
  private async literal(workspace: string, pattern: string): Promise<ToolResult> {
    if (pattern.split('/').includes('.git')) return noMatch(pattern);
    const where = await resolveInWorkspace(workspace, pattern, this.config?.protectedPaths);
    if (!where.ok) return ToolResult.error(where.problem);
    const info = await lstat(where.path).catch(() => undefined);
    return info?.isFile() ? ToolResult.success(printable(pattern)) : noMatch(pattern);
  }
}

function noMatch(pattern: string): ToolResult {
  return ToolResult.success(`No files match ${pattern} (.gitignore'd files and .git are skipped)`);
}
