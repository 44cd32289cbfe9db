/**
 * agent-harness: what an embedder needs to run, persist and observe the loop. The rest is in
 * named subpaths: agent-harness/tools, /stores, /mcp, /subagents, /context, /journal, /machine,
 * /prices; the model adapters (/openai, /anthropic), /inspector, /diagram, /telemetry and the
 * testing kit (/testing). test/architecture/api-report.md lists every entry's names.
 */

// A scripted model (also in agent-harness/testing)
export { ScriptedClient } from './adapters/index.js';
// The agent
export type { AgentOptions, ResumeOptions, RunEvent, RunOptions } from './agent/index.js';
export { Agent } from './agent/index.js';
// Configuration and budgets
export type { BudgetOptions, ConfigOptions, PermissionPolicy } from './config/index.js';
export { Budget, Config } from './config/index.js';
// Data, events and errors, and the model client port
export type {
  AgentEventDataMap,
  AssistantMessage,
  ChatCompletionOptions,
  JournalEntry,
  JsonValue,
  Message,
  ModelClient,
  ModelStream,
  StopReason,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolDefinition,
  ToolMessage,
  ToolResultMessage,
  UserMessage,
} from './core/index.js';
export {
  AgentEvent,
  AgentEventType,
  HarnessError,
  isTerminal,
  StreamEvent,
  StreamEventType,
  stableJson,
  ToolKind,
  ToolResult,
} from './core/index.js';
// The event bus: the stream that is also the journal
export type { StreamRecord, Subscriber, Unsubscribe } from './events/index.js';
export { EventBus } from './events/index.js';
// The machine (its types and helpers: agent-harness/machine)
export { agentMachine } from './machines/index.js';
// MCP tool sources. From its own module, not ./mcp/index.js: that barrel reaches the SDK's
// types, and the root's declarations must check without the optional packages installed.
export { connectMcp } from './mcp/connect-mcp.js';
// Sessions
export type { ForkOptions, LoadOptions, SessionOptions, SessionSnapshot } from './session/index.js';
export { Session } from './session/index.js';
// Stores. From their own modules, not ./stores/index.js: that barrel reaches the drivers' types.
export type { JournalStore, JournalWriter } from './stores/journal-store.js';
export { openStore } from './stores/open-store.js';
export type { StoreOptions } from './stores/store-options.js';
// Sub-agents and handoffs
export { agentTool, handoffTool } from './subagents/index.js';
// Tools
export type { ToolInvocation, ToolSpec } from './tools/index.js';
export { defineTool, ReadFileTool, Tool, ToolRegistry, workspaceTools } from './tools/index.js';
