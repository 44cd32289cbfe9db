import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import { resolveInWorkspace } from '../workspace.js';
import { printable } from './confine.js';

const schema = z.object({
  path: z.string().min(1).optional().describe('Folder path, relative to the workspace. Default: the workspace.'),
});

/** Entries listed at most; the rest are counted in a marker. */
export const MAX_LIST_ENTRIES = 1000;

function kindOf(info: Stats | undefined): string {
  if (info === undefined) return 'gone';
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'dir';
  if (info.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * Lists a workspace folder: one line per entry with its type (`file`, `dir`, `symlink`,
 * `other`), size in bytes for files, and name (`/` after folders), sorted by name. Lists
 * everything, ignored files and dotfiles included; symlinks are shown, not followed.
 */
export class ListDirTool extends Tool<typeof schema> {
  readonly name = 'list_dir';
  readonly description =
    `List a folder in the workspace: type, size in bytes and name of each entry, sorted by name ` +
    `(at most ${MAX_LIST_ENTRIES} entries). path defaults to the workspace itself.`;
  readonly kind = ToolKind.READ;
  readonly schema = schema;
  private readonly maxEntries: number;

  constructor(config?: Config, options: { readonly maxEntries?: number } = {}) {
    super(config);
    this.maxEntries = options.maxEntries ?? MAX_LIST_ENTRIES;
  }

  async execute({ params, cwd }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const shown = params.path ?? '.';
    const where = await resolveInWorkspace(this.config?.cwd ?? cwd, shown, this.config?.protectedPaths);
    if (!where.ok) return ToolResult.error(where.problem);
    const info = await lstat(where.path).catch(() => undefined);
    if (info === undefined) return ToolResult.error(`Folder not found: ${shown}`);
    if (!info.isDirectory()) return ToolResult.error(`Not a folder: ${shown}`);
    const names = (await readdir(where.path)).sort();
    if (names.length === 0) return ToolResult.success(`(empty folder: ${shown})`);
    const listed = names.slice(0, this.maxEntries);
    const lines = await Promise.all(
      listed.map(async (name) => {
        const entry = await lstat(join(where.path, name)).catch(() => undefined);
        const kind = kindOf(entry);
        const size = kind === 'file' ? String(entry?.size ?? 0) : '-';
        return `${kind.padEnd(7)} ${size.padStart(10)}  ${printable(name)}${kind === 'dir' ? '/' : ''}`;
      }),
    );
    const more = names.length - listed.length;
    if (more > 0) lines.push(`[${more.toLocaleString('en-US')} more entries not shown]`);
    return ToolResult.success(lines.join('\n'));
  }
}
