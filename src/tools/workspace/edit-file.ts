import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { errorMessage } from '../../core/errors.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import { resolveInWorkspace } from '../workspace.js';
import { WriteConflictError, writeAtomically } from './atomic-write.js';
import { resolveWritable, workspaceRoot } from './confine.js';
import { openRegularFile } from './open-regular-file.js';

const schema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace.'),
  old: z.string().min(1).describe('The exact text to replace; it must occur exactly once in the file.'),
  new: z.string().describe('The text to put in its place.'),
});

/** Files larger than this are not edited (write the file whole instead). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** Where `needle` starts in `text`, overlapping occurrences included, up to `limit` of them. */
function occurrences(text: string, needle: string, limit: number): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1 && found.length < limit; at = text.indexOf(needle, at + 1)) {
    found.push(at);
  }
  return found;
}

/** Options of {@link EditFileTool}. */
export interface EditFileToolOptions {
  /**
   * Called with the file's real path after it was read and before it is written back: where a
   * test plays another writer, deterministically. Default: nothing.
   */
  readonly afterRead?: (path: string) => void | Promise<void>;
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

/**
 * Replaces one exact, unique string in a workspace file. A string that is missing, or that
 * occurs more than once, is an error that says so (with the count), and the file is unchanged.
 * A file that another writer changed between the read and the write is not overwritten: the
 * result is `Error: conflict: <path> changed while it was being edited; read it again`.
 */
export class EditFileTool extends Tool<typeof schema> {
  readonly name = 'edit_file';
  readonly description =
    'Replace an exact string in a workspace file. `old` must occur exactly once (include enough surrounding ' +
    'lines to make it unique); whitespace and line breaks must match. The file is rewritten atomically.';
  readonly kind = ToolKind.WRITE;
  readonly schema = schema;

  private readonly options: EditFileToolOptions;

  constructor(config?: Config, options: EditFileToolOptions = {}) {
    super(config);
    this.options = options;
  }

  async execute({ params, cwd }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const workspace = this.config?.cwd ?? cwd;
    const where = await resolveInWorkspace(workspace, params.path, this.config?.protectedPaths);
    if (!where.ok) return ToolResult.error(where.problem);
    const bytes = await this.readBytes(await workspaceRoot(workspace), where.path, params.path);
    if (!Buffer.isBuffer(bytes)) return bytes;
    const text = bytes.toString('utf8');
    if (params.old === params.new) return ToolResult.error('old and new are the same; nothing to change');

    const found = occurrences(text, params.old, 1000);
    const first = found[0];
    if (first === undefined) {
      return ToolResult.error(`old text was not found in ${params.path}; check whitespace and line breaks`);
    }
    if (found.length > 1) {
      const count = found.length >= 1000 ? 'at least 1000' : String(found.length);
      return ToolResult.error(
        `old text was found ${count} times in ${params.path}; include more context so it occurs exactly once`,
      );
    }

    const target = await resolveWritable(workspace, params.path, this.config?.protectedPaths);
    if (!target.ok) return ToolResult.error(target.problem);
    await this.options.afterRead?.(target.path);
    try {
      await writeAtomically(target, text.slice(0, first) + params.new + text.slice(first + params.old.length), {
        basedOn: bytes,
      });
    } catch (error) {
      if (error instanceof WriteConflictError) {
        return ToolResult.error(`conflict: ${params.path} changed while it was being edited; read it again`);
      }
      return ToolResult.error(`Cannot write ${params.path}: ${errorMessage(error)}`);
    }
    const line = lineCount(text.slice(0, first));
    const removed = lineCount(params.old);
    const span = removed === 1 ? `line ${line}` : `lines ${line}-${line + removed - 1}`;
    const added = lineCount(params.new);
    return ToolResult.success(`Edited ${params.path}: replaced ${span} with ${added} line${added === 1 ? '' : 's'}`);
  }

  /** The file's bytes, or the error result that says why it cannot be edited. */
  private async readBytes(root: string, path: string, shown: string): Promise<Buffer | ToolResult> {
    const opened = await openRegularFile(root, path, shown);
    if (!opened.ok) return ToolResult.error(opened.problem);
    try {
      if (opened.size > MAX_EDIT_BYTES) {
        return ToolResult.error(`File too large to edit: ${shown} is ${opened.size} bytes (limit ${MAX_EDIT_BYTES})`);
      }
      const bytes = await opened.handle.readFile();
      if (bytes.subarray(0, 8192).includes(0)) return ToolResult.error(`Binary file: ${shown}`);
      return bytes;
    } finally {
      await opened.handle.close();
    }
  }
}
