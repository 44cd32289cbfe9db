import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { errorMessage } from '../../core/errors.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import { writeAtomically } from './atomic-write.js';
import { displayPath, resolveWritable } from './confine.js';

const schema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace. Missing folders are created.'),
  content: z.string().describe('The whole new content of the file.'),
});

/**
 * Creates or replaces a file inside the workspace. Missing parent folders are created; the
 * write is atomic (temp file, then rename), so a crash never leaves half a file.
 */
export class WriteFileTool extends Tool<typeof schema> {
  readonly name = 'write_file';
  readonly description =
    'Create or overwrite a file in the workspace with the given content (missing folders are created). ' +
    'The write is atomic. Use edit_file to change part of an existing file.';
  readonly kind = ToolKind.WRITE;
  readonly schema = schema;

  constructor(config?: Config) {
    super(config);
  }

  async execute({ params, cwd }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const target = await resolveWritable(this.config?.cwd ?? cwd, params.path, this.config?.protectedPaths);
    if (!target.ok) return ToolResult.error(target.problem);
    try {
      const bytes = await writeAtomically(target, params.content);
      const what = target.exists ? 'replaced' : 'created';
      return ToolResult.success(
        `Wrote ${bytes} byte${bytes === 1 ? '' : 's'} to ${displayPath(target.root, target.path)} (${what})`,
      );
    } catch (error) {
      return ToolResult.error(`Cannot write ${params.path}: ${errorMessage(error)}`);
    }
  }
}
