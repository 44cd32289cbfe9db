import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GitignoreRules } from './gitignore.js';
import { STORE_FOLDER } from './protected-paths.js';

/** A regular file the walk found. */
export interface WalkedFile {
  /** Absolute path. */
  readonly path: string;
  /** Workspace-relative path with `/` separators. */
  readonly relative: string;
}

/** Where and how far to walk. */
export interface WalkOptions {
  /** The workspace, real (symlinks resolved). */
  readonly root: string;
  /** The folder to walk, workspace-relative with `/` separators (`''` for the root). */
  readonly folder: string;
  /** Stop after this many folder entries were looked at. */
  readonly maxEntries: number;
  /** Stops the walk between folders. */
  readonly signal?: AbortSignal;
}

/** What the walk saw; `capped` when it stopped at `maxEntries`. */
export interface WalkStats {
  entries: number;
  capped: boolean;
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The regular files under a folder, depth first in name order, skipping what `.gitignore`
 * files exclude (nested ones included), every `.git` folder (also when asked to walk one) and the
 * session store folder `.agent-harness` at the top. Symlinks are not followed and
 * not listed, so the walk never leaves the workspace or loops. `stats` is filled as it goes.
 */
export async function* walkFiles(options: WalkOptions, stats: WalkStats): AsyncGenerator<WalkedFile> {
  const { root, signal } = options;
  if (options.folder.split('/').includes('.git')) return;
  const start = await GitignoreRules.forFolder(root, options.folder);
  const pending: Array<{ folder: string; rules: GitignoreRules }> = [{ folder: options.folder, rules: start }];
  while (pending.length > 0) {
    if (signal?.aborted) return;
    const { folder, rules } = pending.pop() as { folder: string; rules: GitignoreRules };
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => [] as Dirent[]);
    const subfolders: Array<{ folder: string; rules: GitignoreRules }> = [];
    for (const entry of entries.sort(byName)) {
      if (stats.entries >= options.maxEntries) {
        stats.capped = true;
        return;
      }
      stats.entries++;
      if (entry.name === '.git' || (folder === '' && entry.name === STORE_FOLDER)) continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!rules.ignores(relative, true)) subfolders.push({ folder: relative, rules });
      } else if (entry.isFile() && !rules.ignores(relative, false)) {
        yield { path: join(root, relative), relative };
      }
    }
    // Reversed onto the stack so the first folder by name is walked first.
    for (const sub of subfolders.reverse()) {
      pending.push({ folder: sub.folder, rules: await sub.rules.enter(root, sub.folder) });
    }
  }
}
