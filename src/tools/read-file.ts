import { basename } from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import { type ContentPart, DEFAULT_MAX_ATTACHMENT_BYTES } from '../core/content-parts.js';
import { ToolKind } from '../core/tool-kind.js';
import { ToolResult } from '../core/tool-result.js';
import { Tool, type ToolInvocation } from './tool.js';
import {
  ATTACHMENT_HEAD_BYTES,
  type AttachmentType,
  attachmentExtension,
  attachmentType,
} from './workspace/attachment-type.js';
import { workspaceRoot } from './workspace/confine.js';
import { openRegularFile } from './workspace/open-regular-file.js';
import { resolveInWorkspace } from './workspace.js';

const schema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace.'),
  offset: z.number().int().min(1).optional().describe('First line to read (1-based). Default 1.'),
  limit: z.number().int().min(1).optional().describe('How many lines to read. Default 2000.'),
});

/** Lines returned when the call gives no `limit`. */
export const DEFAULT_READ_LIMIT = 2000;
/** Files larger than this are refused (read smaller files, or split the file). */
export const MAX_READ_BYTES = 50 * 1024 * 1024;

function numbered(lines: readonly string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
}

/** An image or a PDF as the result: a caption naming it and its size, then the part. */
function attached(path: string, bytes: Buffer, kind: AttachmentType): ToolResult {
  const data = bytes.toString('base64');
  const part: ContentPart =
    kind.type === 'image'
      ? { type: 'image', mediaType: kind.mediaType, data }
      : { type: 'file', mediaType: kind.mediaType, data, name: basename(path) };
  return ToolResult.content([{ type: 'text', text: `${path} (${bytes.length} bytes)` }, part]);
}

/**
 * Reads a text file inside the workspace, with line numbers; `offset`/`limit` page big files. An
 * image (PNG, JPEG, GIF, WebP) or a PDF, known by its first bytes, comes back as a part (SPEC
 * §15), up to `Config.maxAttachmentBytes`.
 */
export class ReadFileTool extends Tool<typeof schema> {
  readonly name = 'read_file';
  readonly description =
    'Read a text file in the workspace. Returns numbered lines; use offset and limit to page through long files. ' +
    'An image (PNG, JPEG, GIF, WebP) or a PDF is returned whole, as an attachment you can see (offset and limit do not apply).';
  readonly kind = ToolKind.READ;
  readonly schema = schema;

  constructor(config?: Config) {
    super(config);
  }

  async execute({ params, cwd }: ToolInvocation<z.output<typeof schema>>): Promise<ToolResult> {
    const workspace = this.config?.cwd ?? cwd;
    const where = await resolveInWorkspace(workspace, params.path, this.config?.protectedPaths);
    if (!where.ok) return ToolResult.error(where.problem);
    // Opened without following a symlink and without blocking (a FIFO would hang a plain read).
    const opened = await openRegularFile(await workspaceRoot(workspace), where.path, params.path);
    if (!opened.ok) return ToolResult.error(opened.problem);
    let bytes: Buffer;
    let attachment: AttachmentType | undefined;
    try {
      const head = Buffer.alloc(ATTACHMENT_HEAD_BYTES);
      const { bytesRead } = await opened.handle.read(head, 0, head.length, 0);
      attachment = attachmentType(head.subarray(0, bytesRead));
      const cap = this.config?.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
      if (attachment !== undefined && opened.size > cap) {
        return ToolResult.error(
          `File too large to attach: ${params.path} is ${opened.size} bytes, over the cap of ${cap} bytes (maxAttachmentBytes)`,
        );
      }
      if (opened.size > MAX_READ_BYTES) {
        return ToolResult.error(`File too large: ${params.path} is ${opened.size} bytes (limit ${MAX_READ_BYTES})`);
      }
      bytes = await opened.handle.readFile();
    } finally {
      await opened.handle.close();
    }
    if (attachment !== undefined) return attached(params.path, bytes, attachment);
    if (bytes.subarray(0, 8192).includes(0)) {
      const named = attachmentExtension(params.path);
      return ToolResult.error(
        named === undefined
          ? `Binary file: ${params.path}`
          : `Binary file: ${params.path} is named like ${named}, but its first bytes are not one`,
      );
    }
    return ToolResult.success(
      this.page(bytes.toString('utf8'), params.offset ?? 1, params.limit ?? DEFAULT_READ_LIMIT),
    );
  }

  private page(text: string, offset: number, limit: number): string {
    if (text === '') return '(empty file)';
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    if (offset > lines.length) return `(offset ${offset} is past the end: the file has ${lines.length} lines)`;
    const shown = lines.slice(offset - 1, offset - 1 + limit);
    const last = offset - 1 + shown.length;
    const body = numbered(shown, offset);
    return last < lines.length
      ? `${body}\n[lines ${offset}-${last} of ${lines.length}; use offset ${last + 1} to read on]`
      : body;
  }
}
