// agent-harness: what an embedder needs. Model adapters, the inspector and the diagrams are
// subpath exports (agent-harness/openai, /anthropic, /inspector, /diagram); the testing kit is
// agent-harness/testing.

export type { BudgetRates, ModelPrice } from './adapters/prices.js';
export { MODEL_PRICES, PRICES_AS_OF, PriceTable } from './adapters/prices.js';
// A scripted model (also in agent-harness/testing)
export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from './adapters/scripted-client.js';
export { ScriptedClient } from './adapters/scripted-client.js';
export type {
  AgentEndWithOutput,
  AgentOptions,
  MachineClock,
  ResumeOptions,
  RunEvent,
  RunOptions,
  ToolSource,
} from './agent/agent.js';
export { Agent } from './agent/agent.js';
export type { ChildAgentRun } from './agent/agent-run-context.js';
export type { ApprovalMap } from './agent/approval-controls.js';
export type { HandoffAgent } from './agent/handoffs.js';
export { checkPolicyKeys, type PolicyKeyProblem, policyKeyProblem } from './agent/policy-keys.js';
export { TreeSpend } from './agent/tree-spend.js';
// Configuration, budgets and prices
export type { BudgetOptions, BudgetStopReason, SoftLimitHit } from './config/budget.js';
export { Budget } from './config/budget.js';
export type { ConfigOptions } from './config/config.js';
export {
  Config,
  DEFAULT_MAX_AGENT_DEPTH,
  DEFAULT_MAX_INVALID_TOOL_CALLS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  DEFAULT_MAX_TURNS,
} from './config/config.js';
export type { ContextOptions, ContextSettings } from './config/context-options.js';
export { COMPACTION_STRATEGIES } from './config/context-options.js';
// Tool policy and approval
export type { PermissionPolicy, ScopedPermissions } from './config/permission-policy.js';
export { checkPermissions, permissionDefaults, permissionFor } from './config/permission-policy.js';
export { elisionMarker } from './context/elide-outputs.js';
export { SUMMARY_REQUEST } from './context/summarise-turns.js';
export {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  estimateToolTokens,
} from './context/token-estimate.js';
export { boundTokenScale, MAX_TOKEN_SCALE, MIN_TOKEN_SCALE } from './context/token-scale.js';
export type { AgentEventDataMap, BudgetKind, StopReason } from './core/agent-event.js';
export { AgentEvent, AgentEventType, isTerminal, STOP_REASONS } from './core/agent-event.js';
export type { Permission } from './core/approval-types.js';
export { PERMISSIONS } from './core/approval-types.js';
// Data, events and errors
export type { BoundedTokenScale, Compaction, CompactionStrategy } from './core/compaction.js';
export type { HarnessErrorReason } from './core/errors.js';
export { errorMessage, HarnessError } from './core/errors.js';
export type * from './core/journal-entry.js';
export type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  ToolResultMessage,
  UserMessage,
} from './core/messages.js';
// The agent and its machine
export type { ChatCompletionOptions, ModelClient, ModelStream, RequestedOutput } from './core/model-client.js';
export { stableJson } from './core/stable-json.js';
export type { FinishReason, StreamError, TextDelta, ToolCallDelta } from './core/stream-event.js';
export { StreamEvent, StreamEventType, textOf } from './core/stream-event.js';
export type { ToolException } from './core/tool-exception.js';
export { ToolKind } from './core/tool-kind.js';
export type { ToolDefinition } from './core/tool-params.js';
export { ToolResult, toolMessageContent } from './core/tool-result.js';
export type { TokenUsage } from './core/usage.js';
export { addUsage, tokenUsage, ZERO_USAGE } from './core/usage.js';
export { ranAgents } from './diagram/ran-agents.js';
export type {
  EventBusOptions,
  StreamRecord,
  Subscriber,
  SubscriberErrorHandler,
  Unsubscribe,
} from './events/event-bus.js';
export { DEFAULT_STOP_GRACE_MS, EventBus } from './events/event-bus.js';
export { SubscriberTimeoutError } from './events/subscriber-timeout-error.js';
export { agentMachine, MAIN_AGENT } from './machines/agent-machine.js';
export type * from './machines/agent-machine-types.js';
export type { InvalidCallCount, InvalidCalls } from './machines/invalid-calls.js';
export { invalidCallError } from './machines/invalid-calls.js';
export { DEFAULT_OUTPUT_RETRIES } from './machines/output-rules.js';
// MCP tool sources. Each from its own module, not ./mcp/index.js: that barrel reaches the SDK's
// types, and the root's declarations must check without the optional packages installed.
export { closeAll, connectMcp, connectMcpServers } from './mcp/connect-mcp.js';
export { parseMcpConfig, readMcpConfig } from './mcp/mcp-config.js';
export type { McpCommonOptions, McpHttpOptions, McpServerOptions, McpStdioOptions } from './mcp/mcp-options.js';
export type { ToolsChangedListener, ToolsRefresh } from './mcp/mcp-source.js';
export { McpSource } from './mcp/mcp-source.js';
export type { McpToolInfo } from './mcp/mcp-tool-info.js';
export { childSessionId } from './session/child-session-id.js';
export type { ChildJournals } from './session/child-sessions.js';
export { ChildSessions } from './session/child-sessions.js';
export type { JournalHeader, ReadJournalOptions } from './session/journal-file.js';
// Sessions and journals
export { parseJournal, readJournalFile, serializeJournal, writeJournalFile } from './session/journal-file.js';
export type { AppendListener, LogRecord } from './session/journal-log.js';
export type { PairingProblem } from './session/journal-pairing.js';
export { checkToolPairing } from './session/journal-pairing.js';
export { checkJournalVersion, JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS } from './session/journal-version.js';
export type { ForkOptions, LoadOptions, SessionOptions, SessionSnapshot, ToolCallInput } from './session/session.js';
export { JOURNAL_VERSION_META, Session } from './session/session.js';
export type { SessionTree } from './session/session-tree.js';
export { readSessionTree } from './session/session-tree.js';
export type { StoreFailureListener } from './session/session-writer.js';
// Stores. Each from its own module, not ./stores/index.js: that barrel reaches the drivers' types.
export type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionStatus,
  SessionSummary,
  StoredEntry,
  StoredJournal,
} from './stores/journal-store.js';
export type { JsonlFileSystem } from './stores/jsonl/jsonl-file-system.js';
export { openStore, STORE_URL_FORMS } from './stores/open-store.js';
export type { FsyncPolicy, SqliteSynchronous, StoreOptions } from './stores/store-options.js';
// Sub-agents and handoffs
export type { AgentToolOptions } from './subagents/agent-tool.js';
export { agentTool } from './subagents/agent-tool.js';
export type { HandoffToolOptions } from './subagents/handoff-tool.js';
export { handoffTool } from './subagents/handoff-tool.js';
// Tools
export type { AnyTool, InvokeOptions } from './tools/registry.js';
export { ToolRegistry } from './tools/registry.js';
export type { ToolAnswer, ToolInvocation, ToolLike, ToolSpec } from './tools/tool.js';
export { defineTool, Tool } from './tools/tool.js';
export type { ToolRunContext } from './tools/tool-run-context.js';
export { truncateOutput } from './tools/truncate.js';
export type {
  EditFileToolOptions,
  GlobToolOptions,
  GrepToolOptions,
  ShellToolOptions,
} from './tools/workspace/index.js';
export {
  EditFileTool,
  GlobTool,
  GrepTool,
  ListDirTool,
  ReadFileTool,
  SHELL_ENV_ALLOWED,
  ShellTool,
  WriteFileTool,
  workspaceTools,
} from './tools/workspace/index.js';
