/**
 * Tools (`agent-harness/tools`): defining and registering tools, the workspace tools and their
 * options, the shell sandbox, the helpers a tool author uses, the permission policy, and the
 * content parts (text, images, files) that tasks and tool results may hold.
 */

export type { PermissionPolicy, ScopedPermissions } from '../config/permission-policy.js';
export { checkPermissions, permissionDefaults, permissionFor } from '../config/permission-policy.js';
export type {
  Permission,
  PermissionRule,
  PolicyAnswer,
  PolicyContext,
  PolicyDecisionRecord,
  PolicyFunction,
} from '../core/approval-types.js';
export { PERMISSIONS } from '../core/approval-types.js';
export { checkContent, contentPartSchema } from '../core/content-check.js';
export type { ContentPart, FilePart, ImagePart, MessageContent, TextPart } from '../core/content-parts.js';
export { contentText, DEFAULT_MAX_ATTACHMENT_BYTES, IMAGE_MEDIA_TYPES } from '../core/content-parts.js';
export type { JsonObject } from '../core/messages.js';
export type { ToolException } from '../core/tool-exception.js';
export { ToolKind } from '../core/tool-kind.js';
export type { ToolDefinition } from '../core/tool-params.js';
export { ToolResult, toolMessageContent } from '../core/tool-result.js';
export type { CommandPrefixOptions, PathGlobOptions } from './policies/index.js';
export { commandPrefixes, numericLimit, pathGlobs } from './policies/index.js';
export type { AnyTool, InvokeOptions } from './registry.js';
export { ToolRegistry } from './registry.js';
export type { ToolAnswer, ToolInvocation, ToolLike, ToolSpec } from './tool.js';
export { defineTool, Tool } from './tool.js';
export type { ToolRunContext } from './tool-run-context.js';
export { truncateOutput } from './truncate.js';
export type {
  EditFileToolOptions,
  GlobToolOptions,
  GrepToolOptions,
  ProcessOutcome,
  SandboxedCommand,
  SandboxKind,
  SandboxMode,
  SandboxNetwork,
  SandboxOptions,
  ShellToolOptions,
  WorkspaceToolsOptions,
} from './workspace/index.js';
export {
  EditFileTool,
  GlobTool,
  GrepTool,
  HOME_SECRETS,
  ListDirTool,
  ReadFileTool,
  SANDBOX_MODES,
  Sandbox,
  SHELL_ENV_ALLOWED,
  ShellTool,
  scrubEnv,
  WriteFileTool,
  workspaceTools,
} from './workspace/index.js';
