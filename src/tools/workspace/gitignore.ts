import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { openRegularFile } from './open-regular-file.js';

/** A `.gitignore` larger than this is not read. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** The rules of one `.gitignore`, and the folder (workspace-relative, `''` for the root) it sits in. */
interface Layer {
  readonly folder: string;
  readonly rules: Ignore;
}

async function readRules(root: string, folder: string): Promise<Ignore | undefined> {
  const file = join(root, folder, '.gitignore');
  const opened = await openRegularFile(root, file, '.gitignore');
  if (!opened.ok) return undefined;
  try {
    if (opened.size > MAX_GITIGNORE_BYTES) return undefined;
    return ignore().add((await opened.handle.readFile()).toString('utf8'));
  } finally {
    await opened.handle.close();
  }
}

/**
 * The `.gitignore` files that apply in one folder: the workspace root's and every nested one on
 * the way down, as git reads them. A deeper file overrides a shallower one (so `!name` in a
 * nested file re-includes what the root excluded); within one file the last matching line wins.
 * Paths are workspace-relative with `/` separators.
 */
export class GitignoreRules {
  private constructor(private readonly layers: readonly Layer[]) {}

  /** No rules. */
  static readonly NONE = new GitignoreRules([]);

  /** The rules for `folder` (workspace-relative), reading each `.gitignore` from the root down. */
  static async forFolder(root: string, folder: string): Promise<GitignoreRules> {
    let rules = await GitignoreRules.NONE.enter(root, '');
    let path = '';
    for (const name of folder === '' ? [] : folder.split('/')) {
      path = path === '' ? name : `${path}/${name}`;
      rules = await rules.enter(root, path);
    }
    return rules;
  }

  /** The rules inside `folder`, a child of this one: these plus its own `.gitignore`, if any. */
  async enter(root: string, folder: string): Promise<GitignoreRules> {
    const own = await readRules(root, folder);
    return own === undefined ? this : new GitignoreRules([...this.layers, { folder, rules: own }]);
  }

  /**
   * Whether `path` (inside a folder that is itself not ignored) is ignored. The deepest file
   * whose rules match the path decides. A file that excludes the path's folder gives no
   * verdict on what is inside it: that folder was re-included deeper down, or named explicitly.
   */
  ignores(path: string, isFolder: boolean): boolean {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as Layer;
      const inLayer = layer.folder === '' ? path : path.slice(layer.folder.length + 1);
      const slash = inLayer.lastIndexOf('/');
      if (slash !== -1 && layer.rules.test(`${inLayer.slice(0, slash)}/`).ignored) continue;
      const verdict = layer.rules.test(isFolder ? `${inLayer}/` : inLayer);
      if (verdict.ignored || verdict.unignored) return verdict.ignored;
    }
    return false;
  }
}
