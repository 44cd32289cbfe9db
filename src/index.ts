/**
 * agent-harness: what an embedder needs to run, persist and observe the loop. The rest is in
 * named subpaths: agent-harness/tools, /stores, /mcp, /subagents, /context, /journal, /machine,
 * /prices; the model adapters (/openai, /anthropic), /inspector, /diagram, /telemetry and the
 * testing kit (/testing). test/architecture/api-report.md lists every entry's names.
 */

// A scripted model (also in agent-harness/testing)
export { ScriptedClient } from './adapters/scripted-client.js';
// The agent
export type { AgentOptions, ResumeOptions, RunEvent, RunOptions } from './agent/agent.js';
export { Agent } from './agent/agent.js';
// Configuration and budgets
export type { BudgetOptions } from './config/budget.js';
export { Budget } from './config/budget.js';
export type { ConfigOptions } from './config/config.js';
export { Config } from './config/config.js';
export type { PermissionPolicy } from './config/permission-policy.js';
// Data, events and errors
export type { AgentEventDataMap, StopReason } from './core/agent-event.js';
export { AgentEvent, AgentEventType, isTerminal } from './core/agent-event.js';
export { HarnessError } from './core/errors.js';
export type { JournalEntry } from './core/journal-entry.js';
export type {
  AssistantMessage,
  JsonValue,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  ToolResultMessage,
  UserMessage,
} from './core/messages.js';
// The model client port
export type { ChatCompletionOptions, ModelClient, ModelStream } from './core/model-client.js';
export { stableJson } from './core/stable-json.js';
export { StreamEvent, StreamEventType } from './core/stream-event.js';
export { ToolKind } from './core/tool-kind.js';
export type { ToolDefinition } from './core/tool-params.js';
export { ToolResult } from './core/tool-result.js';
export type { TokenUsage } from './core/usage.js';
// The event bus: the stream that is also the journal
export type { StreamRecord, Subscriber, Unsubscribe } from './events/event-bus.js';
export { EventBus } from './events/event-bus.js';
// The machine (its types and helpers: agent-harness/machine)
export { agentMachine } from './machines/agent-machine.js';
// MCP tool sources. From its own module, not ./mcp/index.js: that barrel reaches the SDK's
// types, and the root's declarations must check without the optional packages installed.
export { connectMcp } from './mcp/connect-mcp.js';
// Sessions
export type { ForkOptions, LoadOptions, SessionOptions, SessionSnapshot } from './session/session.js';
export { Session } from './session/session.js';
// Stores. From their own modules, not ./stores/index.js: that barrel reaches the drivers' types.
export type { JournalStore, JournalWriter } from './stores/journal-store.js';
export { openStore } from './stores/open-store.js';
export type { StoreOptions } from './stores/store-options.js';
// Sub-agents and handoffs
export { agentTool } from './subagents/agent-tool.js';
export { handoffTool } from './subagents/handoff-tool.js';
// Tools
export { ToolRegistry } from './tools/registry.js';
export type { ToolInvocation, ToolSpec } from './tools/tool.js';
export { defineTool, Tool } from './tools/tool.js';
export { ReadFileTool, workspaceTools } from './tools/workspace/index.js';
