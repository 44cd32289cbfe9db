import type { Config } from '../../config/config.js';
import { ReadFileTool } from '../read-file.js';
import type { ToolLike } from '../tool.js';
import { EditFileTool } from './edit-file.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { ListDirTool } from './list-dir.js';
import { Sandbox, type SandboxMode, type SandboxOptions } from './sandbox.js';
import { ShellTool } from './shell.js';
import { WriteFileTool } from './write-file.js';

export { ReadFileTool } from '../read-file.js';
export { EditFileTool, type EditFileToolOptions, MAX_EDIT_BYTES } from './edit-file.js';
export { GlobTool, type GlobToolOptions, MAX_GLOB_MATCHES, MAX_WALK_ENTRIES } from './glob.js';
export {
  DEFAULT_GREP_MATCHES,
  GrepTool,
  type GrepToolOptions,
  MAX_GREP_CONTEXT,
  MAX_GREP_MATCHES,
  MAX_SCAN_BYTES,
  MAX_SCAN_MS,
  MAX_SEARCHED_LINE_CHARS,
} from './grep.js';
export { ListDirTool, MAX_LIST_ENTRIES } from './list-dir.js';
export type { ProcessOutcome, ProcessRequest } from './run-process.js';
export {
  SANDBOX_MODES,
  Sandbox,
  type SandboxedCommand,
  type SandboxKind,
  type SandboxMode,
  type SandboxNetwork,
  type SandboxOptions,
} from './sandbox.js';
export { looksSecret, SHELL_ENV_ALLOWED, scrubEnv } from './scrub-env.js';
export { HOME_SECRETS } from './secret-paths.js';
export {
  DEFAULT_SHELL_TIMEOUT_MS,
  MAX_SHELL_STREAM_CHARS,
  MAX_SHELL_TIMEOUT_MS,
  ShellTool,
  type ShellToolOptions,
} from './shell.js';
export { WriteFileTool } from './write-file.js';

/** Options of {@link workspaceTools}. */
export interface WorkspaceToolsOptions {
  /**
   * Where `shell` runs its commands: a mode, the options of `Sandbox.create` (the config's
   * `protectedPaths` are added), or a sandbox already made. Default `none`. `bwrap` without a working bubblewrap throws
   * `missing_dependency` here, at startup.
   */
  readonly sandbox?: SandboxMode | SandboxOptions | Sandbox;
}

/** The sandbox asked for, hiding the config's protected paths too. */
export function sandboxFor(config: Config, asked: SandboxMode | SandboxOptions): Sandbox {
  const options = typeof asked === 'string' ? { mode: asked } : asked;
  return Sandbox.create({ ...options, protectedPaths: [...config.protectedPaths, ...(options.protectedPaths ?? [])] });
}

/**
 * The seven workspace tools for a config (`read_file`, `list_dir`, `glob`, `grep`, `write_file`,
 * `edit_file`, `shell`, in that order), all confined to `config.cwd`, ready to register:
 * `for (const tool of workspaceTools(config, { sandbox: 'auto' })) registry.register(tool)`.
 */
export function workspaceTools(config: Config, options: WorkspaceToolsOptions = {}): readonly ToolLike[] {
  const sandbox = options.sandbox instanceof Sandbox ? options.sandbox : sandboxFor(config, options.sandbox ?? 'none');
  return [
    new ReadFileTool(config),
    new ListDirTool(config),
    new GlobTool(config),
    new GrepTool(config),
    new WriteFileTool(config),
    new EditFileTool(config),
    new ShellTool(config, { sandbox }),
  ];
}
